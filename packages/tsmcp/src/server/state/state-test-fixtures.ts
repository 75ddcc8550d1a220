/**
 * Shared fixtures for the requestState tests (not part of the public API): a hand-driven clock, a
 * logger that keeps what it is told, fixed keys, and a low-level `Server` with a multi-round tool,
 * prompt and resource behind a boundary.
 */
import { requestMeta } from "../../../../../test/helpers/meta.js";
import type { Clock } from "../../protocol/clock.js";
import type { JSONRPCRequest, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import type { LogFields, Logger } from "../logger.js";
import { Server } from "../server.js";
import { requestStateBoundary } from "./boundary.js";
import type { RequestStateSecurity } from "./policy.js";

/** Three distinct 32-byte keys. */
export const KEY_A = Buffer.alloc(32, 0xa1);
export const KEY_B = Buffer.alloc(32, 0xb2);
export const KEY_C = "c".repeat(32);

/** 2026-11-29T12:00:00Z, in milliseconds. */
export const T0_MS = Date.UTC(2026, 10, 29, 12, 0, 0);

/** A clock that only moves when told. */
export class ManualClock implements Clock {
  nowMs: number;
  constructor(nowMs = T0_MS) {
    this.nowMs = nowMs;
  }
  now(): number {
    return this.nowMs;
  }
  async sleep(ms: number): Promise<void> {
    this.nowMs += ms;
  }
}

/** One line a {@link CapturingLogger} received. */
export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields: LogFields | undefined;
}

/** A logger that keeps every line. */
export class CapturingLogger implements Logger {
  readonly lines: LogLine[] = [];
  debug(message: string, fields?: LogFields): void {
    this.lines.push({ level: "debug", message, fields });
  }
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: "error", message, fields });
  }
  /** The messages, in order. */
  get messages(): string[] {
    return this.lines.map((line) => line.message);
  }
  /** Forgets every line so far. */
  clear(): void {
    this.lines.length = 0;
  }
}

/** An elicitation asking for a region. */
export const ASK_REGION = elicitationRequest({
  message: "Which region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
});

/** What the handlers of {@link flowServer} saw as `requestState`, in order. */
export type SeenStates = unknown[];

/**
 * A low-level server whose `provision` tool, `briefing` prompt and `notes://` resources each take
 * `rounds` rounds: round n answers with plaintext state `step-n`, and the call completes with
 * `done after step-<rounds - 1>`. The `forecast` tool never asks. A boundary over `policy` is
 * installed with `defaultAudience` (the server's name unless given).
 */
export function flowServer(
  policy: RequestStateSecurity | undefined,
  options: { name?: string; defaultAudience?: string | null; rounds?: number } = {},
): { server: Server; seen: SeenStates } {
  const name = options.name ?? "Provisioner";
  const rounds = options.rounds ?? 2;
  const seen: SeenStates = [];
  const next = (state: unknown) => {
    seen.push(state);
    const step = typeof state === "string" ? Number(state.slice("step-".length)) : 0;
    return step + 1 >= rounds ? undefined : `step-${step + 1}`;
  };
  const server = new Server(name, {
    onCallTool: (_ctx, params) => {
      if (params.name === "forecast") {
        seen.push(params.requestState);
        return { content: [{ type: "text", text: "sunny" }] };
      }
      const state = next(params.requestState);
      if (state === undefined) {
        return { content: [{ type: "text", text: `done after ${String(params.requestState)}` }] };
      }
      return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: state });
    },
    onGetPrompt: (_ctx, params) => {
      const state = next(params.requestState);
      if (state === undefined) {
        return {
          messages: [
            { role: "user", content: { type: "text", text: `done after ${String(params.requestState)}` } },
          ],
        };
      }
      return inputRequired({ requestState: state });
    },
    onReadResource: (_ctx, params) => {
      const state = next(params.requestState);
      if (state === undefined) {
        return { contents: [{ uri: params.uri, text: `done after ${String(params.requestState)}` }] };
      }
      return inputRequired({ requestState: state });
    },
  });
  if (policy !== undefined) {
    const defaultAudience = options.defaultAudience === undefined ? name : options.defaultAudience;
    server.use(requestStateBoundary(policy, { defaultAudience }));
  }
  return { server, seen };
}

/** A full JSON-RPC request with a valid 2026-07-28 `_meta`. */
export function request(
  method: string,
  params: Record<string, unknown>,
  id: string | number = 1,
): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method, params: { _meta: requestMeta(), ...params } };
}

/** Sends one request through `server.handle`, optionally as an authenticated caller. */
export async function send(
  server: Server,
  message: JSONRPCRequest,
  auth?: AuthInfo,
): Promise<JSONRPCResponse> {
  const response = await server.handle(message, {
    signal: new AbortController().signal,
    ...(auth === undefined ? {} : { auth }),
  });
  if (response === undefined) throw new Error("no response to a request");
  return response;
}

/** The result of a response, or a thrown error naming what came instead. */
export function resultOf(response: JSONRPCResponse): Record<string, unknown> {
  if (!("result" in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

/** The error of a response, or a thrown error naming what came instead. */
export function errorOf(response: JSONRPCResponse): { code: number; message: string; data?: unknown } {
  if (!("error" in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

/** The `requestState` of an `InputRequiredResult` response. */
export function stateOf(response: JSONRPCResponse): string {
  const result = resultOf(response);
  if (result.resultType !== "input_required" || typeof result.requestState !== "string") {
    throw new Error(`expected an InputRequiredResult with requestState, got ${JSON.stringify(result)}`);
  }
  return result.requestState;
}

/** The `text` of the first content item of a complete tool result. */
export function textOf(response: JSONRPCResponse): string {
  const content = resultOf(response).content as { text?: string }[] | undefined;
  const text = content?.[0]?.text;
  if (text === undefined) throw new Error(`expected text content, got ${JSON.stringify(response)}`);
  return text;
}

/**
 * The claims of an envelope under the names of its documented fields (`v`, `iat`, `exp`, `m`, `t`,
 * `a`, `s`, then `aud` and `p` when present), read straight from the binary layout: version and
 * flags bytes, two big-endian doubles, length-prefixed (32-bit) text fields, the state to the end.
 */
export function envelopeFields(payload: Uint8Array): Record<string, unknown> {
  const bytes = Buffer.from(payload);
  const flags = bytes[1]!;
  const fields: Record<string, unknown> = {
    v: bytes[0],
    iat: bytes.readDoubleBE(2),
    exp: bytes.readDoubleBE(10),
  };
  const names = ["m", "t", "a"];
  if (flags & 1) names.push("aud");
  if (flags & 2) names.push("p");
  let offset = 18;
  const texts: Record<string, string> = {};
  for (const name of names) {
    const length = bytes.readUInt32BE(offset);
    texts[name] = bytes.toString("utf8", offset + 4, offset + 4 + length);
    offset += 4 + length;
  }
  const state = bytes.toString("utf8", offset);
  Object.assign(fields, { m: texts.m, t: texts.t, a: texts.a, s: flags & 4 ? JSON.parse(state) : state });
  if (texts.aud !== undefined) fields.aud = texts.aud;
  if (texts.p !== undefined) fields.p = texts.p;
  return fields;
}
