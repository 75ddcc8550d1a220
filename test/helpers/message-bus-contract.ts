/**
 * The contract every `MessageBus` keeps (the guarantees of its TSDoc), as one suite to run against
 * each implementation: the in-memory default, a shared engine (Redis pub/sub) in its own package.
 * Call it inside a test file:
 *
 * ```ts
 * messageBusContract("MemoryMessageBus", ({ onError, maxPending }) => {
 *   const bus = new MemoryMessageBus({ onError, maxPending });
 *   return { bus, dropped: () => bus.dropped };
 * });
 * ```
 *
 * Every wait is on a delivery (a sentinel message published after the ones under test, which
 * arrives after them by the order guarantee), never on time. That `onGap` is called after a real
 * interruption is each shared engine's own test (it needs the engine's connection cut).
 */
import { describe, expect, it } from "vitest";
import type { BusMessage, MessageBus } from "../../packages/tsmcp/src/state/message-bus.js";

/** What `make` is given: where the bus reports what it drops or what a subscriber threw, and its bound. */
export interface MessageBusContractSetup {
  readonly onError: (error: unknown) => void;
  /** Deliveries waiting at most; undefined for the implementation's default. */
  readonly maxPending?: number;
}

/** What `make` builds: the bus, its count of dropped messages, and optionally another instance on the same channel. */
export interface MessageBusSubject {
  readonly bus: MessageBus;
  /** Messages the bus dropped at its bound so far. */
  readonly dropped: () => number;
  /** Another instance sharing the bus (another connection, another process's view). */
  readonly peer?: MessageBus;
}

let sequence = 0;
/** A topic no other case of the run uses (so a shared engine carries nothing between cases). */
function freshTopic(): string {
  sequence += 1;
  return `contract-topic-${process.pid}-${Date.now()}-${sequence}`;
}

/** A subscription's inbox: what it received, and a wait for the first message matching a test. */
interface Inbox {
  readonly received: BusMessage[];
  readonly handler: (message: BusMessage) => void;
  until(test: (message: BusMessage) => boolean): Promise<void>;
}

function inbox(): Inbox {
  const received: BusMessage[] = [];
  const waiting: { test: (message: BusMessage) => boolean; resolve: () => void }[] = [];
  return {
    received,
    handler: (message) => {
      received.push(message);
      for (const waiter of [...waiting]) {
        if (waiter.test(message)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    },
    until: (test) =>
      received.some(test)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.push({ test, resolve })),
  };
}

const isEnd = (message: BusMessage) => message.end === true;

/** Runs the `MessageBus` contract against the buses `make` builds (a fresh one per case). */
export function messageBusContract(
  label: string,
  make: (setup: MessageBusContractSetup) => MessageBusSubject | Promise<MessageBusSubject>,
): void {
  const build = async (maxPending?: number) => {
    const errors: unknown[] = [];
    const listeners: (() => void)[] = [];
    const onError = (error: unknown) => {
      errors.push(error);
      for (const listener of listeners) listener();
    };
    const subject = await make(maxPending === undefined ? { onError } : { onError, maxPending });
    return { ...subject, errors, onReport: (listener: () => void) => listeners.push(listener) };
  };

  describe(`the MessageBus contract: ${label}`, () => {
    it("delivers a message once to every active subscription of its topic, the publisher's own included", async () => {
      const { bus } = await build();
      const [topic, other] = [freshTopic(), freshTopic()];
      const [a, b, elsewhere] = [inbox(), inbox(), inbox()];
      await bus.subscribe(topic, a.handler);
      await bus.subscribe(topic, b.handler);
      await bus.subscribe(other, elsewhere.handler);
      await bus.publish(topic, { n: 1 });
      await bus.publish(topic, { end: true });
      await bus.publish(other, { end: true });
      await Promise.all([a.until(isEnd), b.until(isEnd), elsewhere.until(isEnd)]);
      expect(a.received).toEqual([{ n: 1 }, { end: true }]);
      expect(b.received).toEqual([{ n: 1 }, { end: true }]);
      expect(elsewhere.received).toEqual([{ end: true }]);
    });

    it("delivers to the subscriptions of another instance sharing the bus", async (context) => {
      const { bus, peer } = await build();
      if (peer === undefined) context.skip();
      const topic = freshTopic();
      const there = inbox();
      await peer?.subscribe(topic, there.handler);
      await bus.publish(topic, { n: 1, end: true });
      await there.until(isEnd);
      expect(there.received).toEqual([{ n: 1, end: true }]);
    });

    it("tells the publisher whether anyone took a message: 0 while nobody listens, more once someone does", async () => {
      const { bus } = await build();
      const topic = freshTopic();
      await expect(bus.publish(topic, { n: 0 })).resolves.toBe(0);
      const listener = inbox();
      const subscription = await bus.subscribe(topic, listener.handler);
      await expect(bus.publish(topic, { n: 1, end: true })).resolves.toBeGreaterThan(0);
      await listener.until(isEnd);
      await subscription.unsubscribe();
      await expect(bus.publish(topic, { n: 2 })).resolves.toBe(0);
    });

    it("loses a message published while nobody listens", async () => {
      const { bus } = await build();
      const topic = freshTopic();
      await bus.publish(topic, { n: 1 });
      const late = inbox();
      await bus.subscribe(topic, late.handler);
      await bus.publish(topic, { end: true });
      await late.until(isEnd);
      expect(late.received).toEqual([{ end: true }]);
    });

    it("stops delivering to a subscription once unsubscribed (idempotently), and keeps delivering to the others", async () => {
      const { bus } = await build();
      const topic = freshTopic();
      const [gone, stays] = [inbox(), inbox()];
      const subscription = await bus.subscribe(topic, gone.handler);
      // The same callback twice is two subscriptions.
      await bus.subscribe(topic, stays.handler);
      await bus.subscribe(topic, stays.handler);
      await subscription.unsubscribe();
      await subscription.unsubscribe();
      await bus.publish(topic, { end: true });
      await stays.until((message) => stays.received.filter(isEnd).length === 2 && isEnd(message));
      expect(gone.received).toEqual([]);
      expect(stays.received).toEqual([{ end: true }, { end: true }]);
    });

    it("takes an onGap with a subscription, and calls it for no gap while the engine stays reachable", async () => {
      const { bus } = await build();
      const topic = freshTopic();
      const watched = inbox();
      let gaps = 0;
      const subscription = await bus.subscribe(topic, watched.handler, { onGap: () => gaps++ });
      await bus.publish(topic, { n: 1 });
      await bus.publish(topic, { end: true });
      await watched.until(isEnd);
      await subscription.unsubscribe();
      expect(watched.received).toEqual([{ n: 1 }, { end: true }]);
      expect(gaps).toBe(0);
    });

    it("keeps the order in which one publisher published on one topic", async () => {
      const { bus } = await build();
      const topic = freshTopic();
      const ordered = inbox();
      await bus.subscribe(topic, ordered.handler);
      await Promise.all(Array.from({ length: 50 }, (_, n) => bus.publish(topic, { n, end: n === 49 })));
      await ordered.until(isEnd);
      expect(ordered.received.map((message) => message.n)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    });

    it("gives each subscriber its own copy, after publish returned", async () => {
      const { bus } = await build();
      const topic = freshTopic();
      let returned = false;
      const seen: { returned: boolean; list: unknown }[] = [];
      const mutate = (message: BusMessage) => {
        seen.push({ returned, list: structuredClone(message.list) });
        (message.list as number[]).push(99);
      };
      const second = inbox();
      await bus.subscribe(topic, mutate);
      await bus.subscribe(topic, mutate);
      await bus.subscribe(topic, second.handler);
      const message = { list: [1, 2], end: true, skipped: undefined };
      const published = bus.publish(topic, message);
      returned = true;
      await published;
      await second.until(isEnd);
      expect(message.list).toEqual([1, 2]);
      expect(seen).toEqual([
        { returned: true, list: [1, 2] },
        { returned: true, list: [1, 2] },
      ]);
      expect(second.received).toEqual([{ list: [1, 2], end: true }]);
      expect(second.received[0]).not.toHaveProperty("skipped");
    });

    it("reports what a subscriber threw and delivers to the other subscribers all the same", async () => {
      const { bus, errors, onReport } = await build();
      const topic = freshTopic();
      const reported = new Promise<void>((resolve) => onReport(resolve));
      const failure = new Error("subscriber failure");
      await bus.subscribe(topic, () => {
        throw failure;
      });
      const fine = inbox();
      await bus.subscribe(topic, fine.handler);
      await bus.publish(topic, { n: 1 });
      await bus.publish(topic, { end: true });
      await Promise.all([fine.until(isEnd), reported]);
      expect(fine.received).toEqual([{ n: 1 }, { end: true }]);
      expect(errors).toContain(failure);
    });

    it("past its bound, drops messages, counts and reports each one, and delivers the rest", async () => {
      const { bus, dropped, errors, onReport } = await build(1);
      const topic = freshTopic();
      const total = 200;
      const burst = inbox();
      const accounted = new Promise<void>((resolve) => {
        const check = () => {
          if (burst.received.length + dropped() === total) resolve();
        };
        onReport(check);
        void burst.until(() => {
          check();
          return false;
        });
      });
      await bus.subscribe(topic, burst.handler);
      await Promise.all(Array.from({ length: total }, (_, n) => bus.publish(topic, { n })));
      await accounted;
      const numbers = burst.received.map((message) => message.n as number);
      expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
      expect(errors).toHaveLength(dropped());
    });
  });
}
