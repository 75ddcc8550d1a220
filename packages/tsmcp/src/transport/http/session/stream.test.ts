/**
 * A resumable stream over an asynchronous event store: one ordered queue per stream, so events
 * reach the store and the connection in the order they were sent, however long each append
 * takes; bounded, so a store that stops answering cannot grow memory without end.
 */
import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "../../../protocol/jsonrpc.js";
import { StateUnavailableError } from "../../../state/errors.js";
import type { EventStore, EventsAfter } from "../../../state/event-store.js";
import { MemoryEventStore } from "../../../state/memory-event-store.js";
import { MAX_PENDING_APPENDS, ResumableStream } from "./stream.js";

/** An event store whose appends wait until the test lets them through. */
class GatedEventStore implements EventStore {
  readonly appended: (JSONRPCMessage | undefined)[] = [];
  readonly #waiting: (() => void)[] = [];
  #open = false;
  #next = 0;

  get waiting(): number {
    return this.#waiting.length;
  }

  /** Lets every append through, now and later. */
  open(): void {
    this.#open = true;
    for (const release of this.#waiting.splice(0)) release();
  }

  async append(_sessionId: string, streamId: string, message: JSONRPCMessage | undefined): Promise<string> {
    if (!this.#open) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.appended.push(message);
    return `${streamId}_${this.#next++}`;
  }

  appendOnce(sessionId: string, streamId: string, _onceKey: string, message: JSONRPCMessage) {
    return this.append(sessionId, streamId, message);
  }

  async after(): Promise<EventsAfter | undefined> {
    return { streamId: "1", events: [] };
  }

  async dropStream(): Promise<void> {}

  async dropSession(): Promise<void> {}
}

function streamOn(events: EventStore, report: (error: unknown) => void = () => {}): ResumableStream {
  return new ResumableStream("1", {
    events,
    sessionKey: "s",
    keepAliveMs: 0,
    retryMs: 1000,
    maxBufferedBytes: 1 << 24,
    onConnection: () => {},
    report,
  });
}

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { n },
});

describe("a resumable stream over an asynchronous event store", () => {
  it("writes its events, the response last, in the order they were sent while the store was slow", async () => {
    const store = new GatedEventStore();
    const stream = streamOn(store);
    const connection = stream.connect();
    const text = new Response(connection.readable).text();
    stream.send(note(1));
    stream.send(note(2));
    const finished = stream.finish({ jsonrpc: "2.0", id: 7, result: {} });
    store.open();
    expect(await finished).toBe(true);
    const data = (await text)
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)));
    expect(data).toEqual([note(1), note(2), { jsonrpc: "2.0", id: 7, result: {} }]);
    expect(store.appended).toEqual([undefined, note(1), note(2), { jsonrpc: "2.0", id: 7, result: {} }]);
  });

  it("drops a message past MAX_PENDING_APPENDS waiting for the store, and reports it, but never the response", async () => {
    const store = new GatedEventStore();
    const reported: unknown[] = [];
    const stream = streamOn(store, (error) => reported.push(error));
    for (let n = 0; n <= MAX_PENDING_APPENDS; n++) stream.send(note(n));
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain(`dropped a message: ${MAX_PENDING_APPENDS} were waiting`);
    const finished = stream.finish({ jsonrpc: "2.0", id: 1, result: {} });
    store.open();
    await finished;
    expect(store.appended).toHaveLength(1 + MAX_PENDING_APPENDS + 1);
    expect(store.appended.at(-2)).toEqual(note(MAX_PENDING_APPENDS - 1));
    expect(store.appended.at(-1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});

/** An in-memory event store that refuses its next `refusals` appends, as an engine restarting. */
class RestartingEventStore extends MemoryEventStore {
  refusals = 0;

  override async append(sessionId: string, streamId: string, message: JSONRPCMessage | undefined) {
    if (this.refusals > 0) {
      this.refusals--;
      throw new StateUnavailableError("the event engine is restarting", { retryAfterMs: 100 });
    }
    return super.append(sessionId, streamId, message);
  }
}

describe("a resumable stream whose event store refuses events for a while", () => {
  it("stores a message the store refused while no connection was attached, so the client resuming with Last-Event-ID gets it", async () => {
    const store = new RestartingEventStore();
    const stream = streamOn(store);
    const first = stream.connect();
    void new Response(first.readable).text();
    stream.send(note(1));
    await stream.settled();
    const place = stream.cursor as string;
    stream.closeConnection();
    await stream.settled();
    store.refusals = 2;
    const question: JSONRPCMessage = { jsonrpc: "2.0", id: "a-0", method: "elicitation/create", params: {} };
    stream.send(question);
    const resumed = stream.connect(place);
    const text = new Response(resumed.readable).text();
    const finished = stream.finish({ jsonrpc: "2.0", id: 7, result: {} });
    await finished;
    const events = (await text).split("\n\n").filter((block) => block.includes("data: {"));
    expect(events.map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)))).toEqual([
      question,
      { jsonrpc: "2.0", id: 7, result: {} },
    ]);
    for (const block of events) expect(block).toMatch(/^id: /m);
  });
});
