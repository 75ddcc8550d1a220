import { describe, expect, it } from "vitest";
import type { Clock } from "../protocol/clock.js";
import type { InputRequest, InputRequiredResult, InputResponses } from "../protocol/schema/input.js";
import { elicitationRequest, inputRequired } from "../server/input-required.js";
import { Server } from "../server/server.js";
import { InMemoryTransport } from "../transport/memory.js";
import { Client } from "./client.js";
import { InputRequestsPerRoundExceededError } from "./errors.js";
import {
  DEFAULT_INPUT_REQUEST_CONCURRENCY,
  DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND,
  DEFAULT_REQUEST_STATE_MAX_BYTES,
  type DriveOptions,
  driveInputRequired,
  type SendLeg,
} from "./input-required.js";

const ASK = elicitationRequest({ message: "Name?", requestedSchema: { type: "object", properties: {} } });
const ACCEPT = { action: "accept", content: {} } as const;

const idleClock: Clock = { now: () => 0, sleep: async () => {} };

function options(overrides: Partial<DriveOptions> = {}): DriveOptions {
  return {
    method: "tools/call",
    maxRounds: 10,
    maxRequestsPerRound: DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND,
    maxRequestStateBytes: DEFAULT_REQUEST_STATE_MAX_BYTES,
    concurrency: DEFAULT_INPUT_REQUEST_CONCURRENCY,
    clock: idleClock,
    ...overrides,
  };
}

function manyRequests(count: number): Record<string, InputRequest> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`q${i}`, ASK]));
}

/** A server that asks `count` questions once, then returns the answers it got. */
function askOnce(count: number): { send: SendLeg<InputResponses | undefined>; legs: number } {
  const state = {
    legs: 0,
    send: async (
      responses: InputResponses | undefined,
    ): Promise<InputResponses | undefined | InputRequiredResult> => {
      state.legs += 1;
      return state.legs === 1 ? inputRequired({ inputRequests: manyRequests(count) }) : responses;
    },
  };
  return state as { send: SendLeg<InputResponses | undefined>; legs: number };
}

describe("the input-required loop's bounds", () => {
  it("pins the per-round cap at 64 requests and the callback concurrency at 8", () => {
    expect({ DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND, DEFAULT_INPUT_REQUEST_CONCURRENCY }).toStrictEqual({
      DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND: 64,
      DEFAULT_INPUT_REQUEST_CONCURRENCY: 8,
    });
  });

  it("fails a round with more requests than the cap before any callback runs and sends no retry", async () => {
    const server = askOnce(10_000);
    let started = 0;
    const error = await driveInputRequired(
      server.send,
      async () => {
        started += 1;
        return ACCEPT;
      },
      options(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequestsPerRoundExceededError);
    expect(error).toMatchObject({
      name: "InputRequestsPerRoundExceededError",
      maxPerRound: 64,
      count: 10_000,
    });
    expect(started).toBe(0);
    expect(server.legs).toBe(1);
  });

  it("answers a round of exactly the cap", async () => {
    const server = askOnce(5);
    const answers = await driveInputRequired(
      server.send,
      async () => ACCEPT,
      options({ maxRequestsPerRound: 5 }),
    );
    expect(Object.keys(answers ?? {})).toEqual(["q0", "q1", "q2", "q3", "q4"]);
  });

  it("runs no more callbacks at once than the concurrency limit, and answers every key in order", async () => {
    const server = askOnce(20);
    let running = 0;
    let peak = 0;
    const answers = await driveInputRequired(
      server.send,
      async (_request, key) => {
        running += 1;
        peak = Math.max(peak, running);
        // One turn of the event loop: every callback allowed to start has started by then.
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return { action: "accept", content: { key } };
      },
      options({ concurrency: 3 }),
    );
    expect(peak).toBe(3);
    expect(Object.keys(answers ?? {})).toEqual(Array.from({ length: 20 }, (_, i) => `q${i}`));
    expect(answers?.q7).toEqual({ action: "accept", content: { key: "q7" } });
  });

  it("starts no further callback after one fails, aborts the running ones and sends no retry", async () => {
    const server = askOnce(20);
    const started: string[] = [];
    const aborted: string[] = [];
    const error = await driveInputRequired(
      server.send,
      (_request, key, _round, { signal }) => {
        started.push(key);
        if (key === "q1") return Promise.reject(new Error("callback broke"));
        return new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            aborted.push(key);
            reject(signal.reason);
          });
        });
      },
      options({ concurrency: 2 }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe("callback broke");
    expect(started).toEqual(["q0", "q1"]);
    expect(aborted).toEqual(["q0"]);
    expect(server.legs).toBe(1);
  });

  it("keeps a server key named __proto__ as an own answer", async () => {
    let legs = 0;
    const answers = await driveInputRequired<InputResponses | undefined>(
      async (responses) => {
        legs += 1;
        return legs === 1
          ? ({
              resultType: "input_required",
              inputRequests: JSON.parse('{"__proto__": {"method": "roots/list"}}'),
            } as InputRequiredResult)
          : responses;
      },
      async () => ({ roots: [] }),
      options(),
    );
    expect(Object.hasOwn(answers ?? {}, "__proto__")).toBe(true);
  });
});

describe("a Client facing a round with too many input requests", () => {
  it("fails the call with InputRequestsPerRoundExceededError and never calls back", async () => {
    let legs = 0;
    const server = new Server("Greedy", {
      onCallTool: () => {
        legs += 1;
        return inputRequired({ inputRequests: manyRequests(10_000), requestState: "s" });
      },
    });
    let callbacks = 0;
    const client = await Client.connect(new InMemoryTransport(server), {
      elicitationCallback: async () => {
        callbacks += 1;
        return ACCEPT;
      },
    });
    await expect(client.callTool("greedy")).rejects.toMatchObject({
      name: "InputRequestsPerRoundExceededError",
      maxPerRound: 64,
      count: 10_000,
    });
    expect(callbacks).toBe(0);
    expect(legs).toBe(1);
  });

  it("honours inputRequestsMaxPerRound and inputRequestConcurrency", async () => {
    const server = new Server("Asker", {
      onCallTool: (_ctx, params) =>
        params.inputResponses === undefined
          ? inputRequired({ inputRequests: manyRequests(100) })
          : { content: [{ type: "text", text: `${Object.keys(params.inputResponses).length} answers` }] },
    });
    let running = 0;
    let peak = 0;
    const client = await Client.connect(new InMemoryTransport(server), {
      inputRequestsMaxPerRound: 100,
      inputRequestConcurrency: 4,
      elicitationCallback: async () => {
        running += 1;
        peak = Math.max(peak, running);
        // One turn of the event loop: every callback allowed to start has started by then.
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return ACCEPT;
      },
    });
    const result = await client.callTool("ask");
    expect(result.content).toEqual([{ type: "text", text: "100 answers" }]);
    expect(peak).toBe(4);
  });
});
