/**
 * Shared fixtures of the tasks tests (not part of the package): a dispatcher served over real
 * Streamable HTTP on 127.0.0.1 (closed when the test ends), a caller posting raw 2026-07-28
 * requests to it (with or without the tasks extension, with or without a bearer token), two
 * principals behind `bearerAuth`, and waiting on a task manager's status changes (events, never
 * sleeps).
 */
import { onTestFinished } from "vitest";
import { post } from "../../../../../test/helpers/mcp-post.js";
import { requestMeta } from "../../../../../test/helpers/meta.js";
import { TASKS_EXTENSION } from "../../protocol/schema/tasks.js";
import type { AuthInfo, Dispatcher } from "../../transport/dispatcher.js";
import { serve } from "../../transport/http/node/node.js";
import type { HttpHandlerOptions } from "../../transport/http/server/server-handler.js";
import { bearerAuth } from "../auth/bearer.js";
import { InvalidTokenError } from "../auth/verifier.js";
import type { TaskSnapshot } from "./fanout.js";
import type { TaskManager } from "./manager.js";

/** Client capabilities declaring form elicitation and the tasks extension. */
export const TASK_CAPABILITIES = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };

/** Client capabilities declaring form elicitation only. */
export const PLAIN_CAPABILITIES = { elicitation: { form: {} } };

/** Serves `dispatcher` on an ephemeral loopback port until the test ends; resolves with its URL. */
export async function served(dispatcher: Dispatcher, options: HttpHandlerOptions = {}): Promise<URL> {
  const handle = await serve(dispatcher, { host: "127.0.0.1", port: 0, ...options });
  onTestFinished(() => handle.close());
  return handle.url;
}

/** A JSON-RPC answer as the tests read it. */
export interface Answer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the result's fields directly
  readonly result?: Record<string, any>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** Who calls: its capabilities (default {@link TASK_CAPABILITIES}) and bearer token. */
export interface CallerOptions {
  readonly capabilities?: Record<string, unknown>;
  readonly token?: string;
}

let nextId = 1;

/** Posts one 2026-07-28 request to `url` as the caller `options` describes. */
export async function call(
  url: URL,
  method: string,
  params: Record<string, unknown> = {},
  options: CallerOptions = {},
): Promise<Answer> {
  const message = {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: { ...params, _meta: requestMeta(options.capabilities ?? TASK_CAPABILITIES) },
  };
  const response = await post(url, message, options.token);
  const body = response.body ?? {};
  return { status: response.status, result: body.result, error: body.error };
}

/** A caller bound to `url` and `options`. */
export function caller(url: URL, options: CallerOptions = {}) {
  return (method: string, params: Record<string, unknown> = {}) => call(url, method, params, options);
}

/** The tokens of two principals (`alice`, `bob`: one OAuth client, two users) for {@link twoPrincipals}. */
export const PRINCIPALS: Readonly<Record<string, AuthInfo>> = {
  alice: { token: "alice", clientId: "app", subject: "alice", scopes: [] },
  bob: { token: "bob", clientId: "app", subject: "bob", scopes: [] },
};

/** The `authenticate` option of a server that knows {@link PRINCIPALS} by their tokens. */
export function twoPrincipals(): HttpHandlerOptions {
  return {
    authenticate: bearerAuth({
      verifier: {
        async verify(token) {
          const auth = PRINCIPALS[token];
          if (auth === undefined) throw new InvalidTokenError("unknown token");
          return auth;
        },
      },
    }),
  };
}

/**
 * Resolves with the first status change `tasks` publishes that `matches` (subscribe before the
 * step that causes it).
 */
export function nextChange(
  tasks: TaskManager,
  matches: (task: TaskSnapshot) => boolean,
): Promise<TaskSnapshot> {
  return new Promise((resolve) => {
    const stop = tasks.onChange((task) => {
      if (!matches(task)) return;
      stop();
      resolve(task);
    });
  });
}

/** A settable clock for leases and TTLs. */
export function manualClock(startMs = Date.UTC(2026, 6, 28)) {
  let now = startMs;
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    advance(ms: number) {
      now += ms;
    },
  };
}
