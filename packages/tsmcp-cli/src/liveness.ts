/**
 * That long work is alive: while a request is outstanding and nothing else is on screen (no
 * progress bar, no question), a spinner on stderr names it with the time it has waited
 * (`⠹ tools/call deploy · 4s`), and between multi-round-trip legs it says which round's answers
 * went (`tools/call deploy · round 1 answered (2 questions) · 1s`). Drawn only when stderr is a
 * terminal and `--quiet` is not given; a request answered within {@link GRACE_MS} shows nothing.
 * Spec: basic/patterns/mrtr (rounds), basic/utilities/progress.
 */
import type { JSONRPCMessage } from "tsmcp/types";
import { safeText } from "./terminal.js";

/** Milliseconds a request may take before the spinner shows. */
export const GRACE_MS = 300;
/** Milliseconds between two frames. */
const FRAME_MS = 100;
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The methods that carry multi-round-trip input. */
const CARRIERS = new Set(["tools/call", "prompts/get", "resources/read"]);

/** Where the spinner draws: stderr, or a stand-in in tests. */
export interface SpinnerStream {
  readonly isTTY?: boolean;
  write(text: string): boolean;
}

/** The request a message is: its id, method and params; undefined for anything else. */
function requestOf(
  message: JSONRPCMessage,
): { id: string | number; method: string; params: Record<string, unknown> } | undefined {
  const m = message as { id?: unknown; method?: unknown; params?: unknown };
  if ((typeof m.id !== "string" && typeof m.id !== "number") || typeof m.method !== "string")
    return undefined;
  const params =
    typeof m.params === "object" && m.params !== null ? (m.params as Record<string, unknown>) : {};
  return { id: m.id, method: m.method, params };
}

/** The spinner of this process. */
export class Liveness {
  readonly #stream: SpinnerStream;
  readonly #now: () => number;
  #enabled = false;
  #quiet = false;
  /** Outstanding requests by id: what the spinner says and since when. */
  readonly #outstanding = new Map<string | number, { label: string; sinceMs: number }>();
  /** The rounds answered so far per carrier call (method and name). */
  readonly #rounds = new Map<string, number>();
  #holds = 0;
  #drawn = false;
  #frame = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(stream: SpinnerStream = process.stderr, now: () => number = Date.now) {
    this.#stream = stream;
    this.#now = now;
  }

  /** Turns the spinner on (a terminal and no `--quiet`) or off. */
  configure(options: { readonly quiet: boolean }): void {
    this.#quiet = options.quiet;
    this.#enabled = this.#stream.isTTY === true && !options.quiet;
  }

  /** True with `--quiet`: no spinner, and no progress either. */
  get quiet(): boolean {
    return this.#quiet;
  }

  /** True when it may draw. */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** Follows the wire: a request sent starts waiting, its response (or error) ends it. */
  observe(message: JSONRPCMessage, direction: "sent" | "received"): void {
    if (direction === "sent") {
      const request = requestOf(message);
      if (request !== undefined) this.#start(request.id, this.#label(request.method, request.params));
      return;
    }
    const reply = message as { id?: unknown; method?: unknown };
    if (reply.method === undefined && (typeof reply.id === "string" || typeof reply.id === "number")) {
      this.#end(reply.id);
    }
  }

  /** What the spinner says for a request. */
  #label(method: string, params: Record<string, unknown>): string {
    if (!CARRIERS.has(method)) return method;
    const target = String(params.name ?? params.uri ?? "");
    const key = `${method} ${target}`;
    const answers = params.inputResponses;
    if (typeof answers !== "object" || answers === null) {
      this.#rounds.set(key, 0);
      return key;
    }
    const round = (this.#rounds.get(key) ?? 0) + 1;
    this.#rounds.set(key, round);
    const count = Object.keys(answers).length;
    return `${key} · round ${round} answered (${count} question${count === 1 ? "" : "s"})`;
  }

  #start(id: string | number, label: string): void {
    this.#outstanding.set(id, { label: safeText(label), sinceMs: this.#now() });
    if (this.#enabled && this.#timer === undefined) {
      this.#timer = setInterval(() => this.tick(), FRAME_MS);
      this.#timer.unref?.();
    }
  }

  #end(id: string | number): void {
    this.#outstanding.delete(id);
    if (this.#outstanding.size === 0) {
      this.clear();
      if (this.#timer !== undefined) clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Something else is on screen (a question, a progress bar) until {@link release}. */
  hold(): void {
    this.#holds += 1;
    this.clear();
  }

  /** The screen is the spinner's again. */
  release(): void {
    this.#holds = Math.max(0, this.#holds - 1);
  }

  /** Takes the spinner off its line (before anything else is written there). */
  clear(): void {
    if (!this.#drawn) return;
    this.#stream.write("\r\x1b[2K");
    this.#drawn = false;
  }

  /** Draws one frame: the newest outstanding request, with the time it has waited. */
  tick(): void {
    if (!this.#enabled || this.#holds > 0) return;
    const newest = [...this.#outstanding.values()].at(-1);
    if (newest === undefined) return;
    const waitedMs = this.#now() - newest.sinceMs;
    if (waitedMs < GRACE_MS) return;
    this.#frame = (this.#frame + 1) % FRAMES.length;
    this.#stream.write(`\r\x1b[2K${FRAMES[this.#frame]} ${newest.label} · ${Math.floor(waitedMs / 1000)}s`);
    this.#drawn = true;
  }
}

/** The spinner of the command. */
export const liveness = new Liveness();
