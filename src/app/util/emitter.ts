/** A subscription's end. */
export interface Disposable {
  dispose(): void;
}

/**
 * One typed event: `event` is what listeners subscribe with (`model.onDidChange(listener)`), `fire` tells them
 * all. A listener that throws does not stop the others from hearing the event.
 */
export class Emitter<T = void> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // One broken listener must not silence the others (a view, the status bar, the poller).
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
