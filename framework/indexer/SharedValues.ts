/** A typed name for a value handlers of one block hand to each other (`ctx.shared`). */
export interface SharedKey<T> {
  readonly name: string;
  /** Never set: carries the value type. */
  readonly value?: T;
}

export function sharedKey<T>(name: string): SharedKey<T> {
  return { name };
}

/**
 * Values the handlers of one block hand to each other (core-chain's account ids for the plugins
 * after it). Keys are typed, so the reader gets the writer's type; the values live for one block.
 */
export class SharedValues {
  private readonly values = new Map<string, unknown>();

  get<T>(key: SharedKey<T>): T | undefined {
    return this.values.get(key.name) as T | undefined;
  }

  set<T>(key: SharedKey<T>, value: T): void {
    this.values.set(key.name, value);
  }
}
