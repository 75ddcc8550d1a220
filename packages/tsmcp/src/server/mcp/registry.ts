/**
 * An ordered registry of named entries (tools, prompts, resources, templates): lookup by name, a
 * stable registration order for listing and cursors, and a handle to remove an entry at run time.
 * Every change is reported once, so the server can tell `subscriptions/listen` streams.
 */

/** What a registration returns: the name it is listed under, and a way to take it back. */
export interface RegistrationHandle {
  /** The tool or prompt name, or the resource URI / URI template. */
  readonly name: string;
  /**
   * Removes the entry (clients watching the list are told it changed). Idempotent; does nothing
   * once the name has been registered again by someone else.
   */
  remove(): void;
}

/** One registered entry, with its place in registration order. */
export interface Registered<T> {
  readonly name: string;
  /** Position in registration order; never reused, so cursors stay meaningful. */
  readonly seq: number;
  readonly value: T;
}

/** Entries by name, in registration order. */
export class Registry<T> {
  readonly #byName = new Map<string, Registered<T>>();
  #ordered: Registered<T>[] = [];
  #nextSeq = 1;
  readonly #onChange: () => void;

  /** `onChange` runs after every add and remove. */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** The entry registered under `name`. */
  get(name: string): T | undefined {
    return this.#byName.get(name)?.value;
  }

  /** True when `name` is registered. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** Every entry, in registration order (a snapshot; do not mutate). */
  get entries(): readonly Registered<T>[] {
    return this.#ordered;
  }

  /**
   * Registers `value` under `name`.
   *
   * @throws TypeError when `name` is already registered (`what` names the kind in the message).
   */
  add(name: string, value: T, what: string): RegistrationHandle {
    if (this.#byName.has(name)) {
      throw new TypeError(`${what} ${JSON.stringify(name)} is already registered; remove() it first`);
    }
    const entry: Registered<T> = { name, seq: this.#nextSeq++, value };
    this.#byName.set(name, entry);
    this.#ordered = [...this.#ordered, entry];
    this.#onChange();
    return {
      name,
      remove: () => {
        if (this.#byName.get(name) !== entry) return;
        this.#byName.delete(name);
        this.#ordered = this.#ordered.filter((other) => other !== entry);
        this.#onChange();
      },
    };
  }
}
