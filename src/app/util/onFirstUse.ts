/** A value made on first use, as those who follow it see it. */
export interface Lazy<T> {
  /** The value, made now if it was not yet. */
  readonly value: T;
  /** The value if it was made, without making it. */
  readonly ifMade: T | undefined;
  /** Runs `listener` once the value is made (at once if it is), without making it. */
  whenMade(listener: (value: T) => void): void;
}

/**
 * A value made the first time it is asked for (issue 29: activation makes only what the first paint needs, a
 * view's model when the view or a command first uses it). Whoever must follow the value from its start (the
 * view's provider, the poller) asks `whenMade`, which does not make it.
 */
export class OnFirstUse<T> implements Lazy<T> {
  private made: T | undefined;
  private making = false;
  private readonly listeners: Array<(value: T) => void> = [];

  constructor(private readonly make: () => T) {}

  /** The value, made now if it was not yet (the `whenMade` listeners run then, before it is returned). */
  get value(): T {
    if (this.made === undefined) {
      // Asked again while being made (a listener of what it makes asking for it): a second one would be made.
      if (this.making) throw new Error('A value made on first use was asked for while it was being made.');
      this.making = true;
      try {
        this.made = this.make();
      } finally {
        this.making = false;
      }
      for (const listener of this.listeners.splice(0)) listener(this.made);
    }
    return this.made;
  }

  /** The value if it was made, without making it. */
  get ifMade(): T | undefined {
    return this.made;
  }

  /** Runs `listener` once the value is made (at once if it is). */
  whenMade(listener: (value: T) => void): void {
    if (this.made !== undefined) listener(this.made);
    else this.listeners.push(listener);
  }
}

/** A member of a value made on first use (a view's model, its poller: made together), itself made on first use. */
export function memberOf<T, M>(source: Lazy<T>, member: (value: T) => M): Lazy<M> {
  return {
    get value() {
      return member(source.value);
    },
    get ifMade() {
      const made = source.ifMade;
      return made === undefined ? undefined : member(made);
    },
    whenMade: (listener) => source.whenMade((made) => listener(member(made))),
  };
}
