/**
 * The `requestState` a Client echoes is bounded: a server that answers `input_required` with a
 * state larger than `requestStateMaxBytes` (UTF-8 bytes) fails the call with
 * `RequestStateTooLargeError` before any callback runs and before anything is sent back, so a
 * server cannot make the client upload what it likes round after round. Over Streamable HTTP on
 * 127.0.0.1. Spec: basic/patterns/mrtr §Client Requirements.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../protocol/local-errors.js";
import { elicitationRequest, inputRequired } from "../server/input-required.js";
import { Server } from "../server/server.js";
import { type HttpServerHandle, serve } from "../transport/http/node/node.js";
import { Client } from "./client.js";
import { RequestStateTooLargeError } from "./errors.js";
import { DEFAULT_REQUEST_STATE_MAX_BYTES } from "./input-required.js";

const ASK = elicitationRequest({ message: "Name?", requestedSchema: { type: "object", properties: {} } });

/** What the server saw: how many legs, and the length of each echoed requestState. */
interface Seen {
  legs: number;
  echoed: number[];
}

let handle: HttpServerHandle | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await handle?.close();
  client = undefined;
  handle = undefined;
});

/** Serves a tool that asks once with `state` as its requestState, then answers "done". */
async function asking(state: string): Promise<{ url: URL; seen: Seen }> {
  const seen: Seen = { legs: 0, echoed: [] };
  const server = new Server("Stateful", {
    onCallTool: (_ctx, params) => {
      seen.legs += 1;
      if (params.requestState !== undefined) seen.echoed.push(params.requestState.length);
      return params.inputResponses === undefined
        ? inputRequired({ inputRequests: { name: ASK }, requestState: state })
        : { content: [{ type: "text", text: "done" }] };
    },
  });
  handle = await serve(server, { keepAliveMs: 0 });
  return { url: handle.url, seen };
}

describe("a Client facing a large requestState", () => {
  it("fails the call past the default bound, before any callback runs and without echoing it", async () => {
    const { url, seen } = await asking("s".repeat(DEFAULT_REQUEST_STATE_MAX_BYTES + 1));
    let callbacks = 0;
    client = await Client.connect(url, {
      elicitationCallback: async () => {
        callbacks += 1;
        return { action: "accept", content: {} };
      },
    });
    const error = await client.callTool("stateful").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestStateTooLargeError);
    expect(error).toMatchObject({
      name: "RequestStateTooLargeError",
      code: ERROR_CODES.RequestStateTooLargeError,
      maxBytes: DEFAULT_REQUEST_STATE_MAX_BYTES,
    });
    expect((error as Error).message).toBe(
      `The server answered tools/call with a requestState larger than requestStateMaxBytes (${DEFAULT_REQUEST_STATE_MAX_BYTES} bytes); ` +
        "raise requestStateMaxBytes on the Client if the server is trusted to send that much.",
    );
    expect(callbacks).toBe(0);
    expect(seen).toEqual({ legs: 1, echoed: [] });
  });

  it("counts UTF-8 bytes against requestStateMaxBytes: a state of exactly the bound is echoed", async () => {
    // 32 two-byte characters: 64 bytes.
    const fits = await asking("é".repeat(32));
    client = await Client.connect(fits.url, {
      requestStateMaxBytes: 64,
      elicitationCallback: async () => ({ action: "accept", content: {} }),
    });
    const result = await client.callTool("stateful");
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(fits.seen).toEqual({ legs: 2, echoed: [32] });
    await client.close();
    await handle?.close();

    // 33 characters, 66 bytes: over, though its length (33) is not.
    const over = await asking("é".repeat(33));
    client = await Client.connect(over.url, {
      requestStateMaxBytes: 64,
      elicitationCallback: async () => ({ action: "accept", content: {} }),
    });
    await expect(client.callTool("stateful")).rejects.toMatchObject({
      name: "RequestStateTooLargeError",
      maxBytes: 64,
    });
    expect(over.seen).toEqual({ legs: 1, echoed: [] });
  });

  it("pins the default at 1 MiB and checks requestStateMaxBytes when built", async () => {
    expect(DEFAULT_REQUEST_STATE_MAX_BYTES).toBe(1024 * 1024);
    const { url } = await asking("s");
    await expect(Client.connect(url, { requestStateMaxBytes: 0 })).rejects.toThrow(RangeError);
    await expect(Client.connect(url, { requestStateMaxBytes: 2.5 })).rejects.toThrow(RangeError);
    await expect(Client.connect(url, { requestStateMaxBytes: "1MB" as never })).rejects.toThrow(
      new TypeError('Client option "requestStateMaxBytes" must be a number of bytes'),
    );
  });
});
