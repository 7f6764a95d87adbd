/** A subscription's end. */
export interface Disposable {
  dispose(): void;
}

/** One typed event: `event` is what listeners subscribe with (`model.onDidChange(listener)`), `fire` tells them all. */
export class Emitter<T = void> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    // A copy: a listener may unsubscribe (or subscribe another) while hearing the event.
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
