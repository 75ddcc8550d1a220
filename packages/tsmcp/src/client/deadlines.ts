/**
 * Request deadlines without a timer per request. Requests that share a timeout length expire in
 * the order they started, so each length keeps its deadlines in a first-in-first-out queue with one
 * timer, set for the earliest deadline still waiting. Ending a request only marks its entry; the
 * timer keeps the process alive while some request of its length waits (as a timer per request
 * did) and not after.
 */

/** A started deadline; `cancel` before it expires (idempotent). */
export interface Deadline {
  cancel(): void;
}

interface Entry extends Deadline {
  /** `performance.now()` at which it expires. */
  readonly at: number;
  /** Called once at expiry; undefined once cancelled or expired. */
  onExpire: (() => void) | undefined;
}

class DeadlineQueue {
  readonly #timeoutMs: number;
  readonly #entries: Entry[] = [];
  #head = 0;
  #waiting = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerRefed = false;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  start(onExpire: () => void): Deadline {
    const entry: Entry = {
      at: performance.now() + this.#timeoutMs,
      onExpire,
      cancel: () => {
        if (entry.onExpire === undefined) return;
        entry.onExpire = undefined;
        this.#release();
      },
    };
    this.#entries.push(entry);
    this.#waiting += 1;
    if (this.#timer === undefined) this.#arm(this.#timeoutMs);
    else if (!this.#timerRefed) {
      this.#timer.ref?.();
      this.#timerRefed = true;
    }
    return entry;
  }

  #release(): void {
    this.#waiting -= 1;
    if (this.#waiting === 0 && this.#timer !== undefined && this.#timerRefed) {
      this.#timer.unref?.();
      this.#timerRefed = false;
    }
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(() => this.#fire(), delayMs);
    this.#timerRefed = true;
    if (this.#waiting === 0) {
      this.#timer.unref?.();
      this.#timerRefed = false;
    }
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    const entries = this.#entries;
    while (this.#head < entries.length) {
      const entry = entries[this.#head] as Entry;
      const onExpire = entry.onExpire;
      if (onExpire !== undefined && entry.at > now) break;
      this.#head += 1;
      if (onExpire !== undefined) {
        entry.onExpire = undefined;
        this.#waiting -= 1;
        onExpire();
      }
    }
    this.compact();
    const next = entries[this.#head];
    if (next !== undefined && this.#timer === undefined) this.#arm(Math.max(1, Math.ceil(next.at - now)));
  }

  /** Drops the entries at the head that no longer wait (cancelled), so the queue stays short. */
  compact(): void {
    const entries = this.#entries;
    while (this.#head < entries.length && (entries[this.#head] as Entry).onExpire === undefined) {
      this.#head += 1;
    }
    if (this.#head === entries.length) {
      entries.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > entries.length) {
      entries.splice(0, this.#head);
      this.#head = 0;
    }
  }
}

const queues = new Map<number, DeadlineQueue>();

/** The longest delay `setTimeout` keeps; a longer timeout gets a timer of its own, as before. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `onExpire` once `timeoutMs` milliseconds (finite, positive) have passed, unless the
 * returned deadline is cancelled first.
 */
export function startDeadline(timeoutMs: number, onExpire: () => void): Deadline {
  if (timeoutMs > MAX_TIMER_MS) {
    const timer = setTimeout(onExpire, timeoutMs);
    return { cancel: () => clearTimeout(timer) };
  }
  let queue = queues.get(timeoutMs);
  if (queue === undefined) {
    queue = new DeadlineQueue(timeoutMs);
    queues.set(timeoutMs, queue);
  } else {
    queue.compact();
  }
  return queue.start(onExpire);
}
