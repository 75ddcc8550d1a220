/**
 * Replicas of one server in one process, for the fleet tests of the handshake-era state: `count`
 * `serve` handlers on 127.0.0.1, each with its own server built by `build`, all given the same
 * `state` (shared in-memory stores and bus by default, or Redis ones), and a `fetch` that sends
 * each request to the next replica in turn (round-robin, no affinity), as a load balancer
 * without session hashing would.
 */
import type { MCPServer, Server } from "tsmcp/server";
import { MemoryEventStore, MemoryMessageBus, MemorySessionStore, type StateStores } from "tsmcp/state";
import {
  HttpClientTransport,
  type HttpClientTransportOptions,
  type HttpHandlerOptions,
} from "tsmcp/transport";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/transport/http/node/node.js";

/** A fleet of replicas in this process. */
export interface Replicas {
  /** The stores and bus the first replica was given (every replica's, unless given per replica). */
  readonly state: StateStores;
  /** Each replica's endpoint, in order. */
  readonly urls: readonly URL[];
  /** Each replica's server, in order. */
  readonly servers: readonly (Server | MCPServer)[];
  /** The URL requests are sent to; {@link fetch} moves them to a replica. */
  readonly url: URL;
  /**
   * A `fetch` that sends each request to the next live replica in turn (the path and query kept);
   * give it to a client's `fetch` option.
   */
  readonly fetch: typeof fetch;
  /** A tsmcp client transport whose requests go round-robin ({@link fetch}). */
  transport(options?: Omit<HttpClientTransportOptions, "fetch">): HttpClientTransport;
  /** How many requests each replica was sent, in order. */
  readonly hits: number[];
  /** Sends every later request to replica `index` only (null: round-robin again). */
  pin(index: number | null): void;
  /** Stops replica `index` (closes its handler; later requests skip it). */
  stop(index: number): Promise<void>;
  /** Stops every replica. */
  close(): Promise<void>;
}

/** Shared in-memory stores and bus: what replicas in one process share to act as a fleet. */
export function memoryState(): Required<StateStores> {
  return { sessions: new MemorySessionStore(), events: new MemoryEventStore(), bus: new MemoryMessageBus() };
}

/**
 * Starts `count` replicas, each serving `build(index)` with `options` and the shared `state`
 * (default {@link memoryState}), or `state(index)` when it is a function (a Redis connection of
 * each replica's own, as separate processes would have).
 */
export async function startReplicas(
  count: number,
  build: (index: number) => Server | MCPServer,
  options: { state?: StateStores | ((index: number) => StateStores); http?: HttpHandlerOptions } = {},
): Promise<Replicas> {
  const given = options.state ?? memoryState();
  const stateOf = typeof given === "function" ? given : () => given;
  const state = stateOf(0);
  const servers = Array.from({ length: count }, (_, index) => build(index));
  const handles: (HttpServerHandle | undefined)[] = [];
  for (const [index, server] of servers.entries()) {
    handles.push(await serve(server, { ...options.http, port: 0, state: stateOf(index) }));
  }
  const urls = handles.map((handle) => (handle as HttpServerHandle).url);
  const hits = urls.map(() => 0);
  let next = 0;
  let pinned: number | null = null;
  const pick = (): number => {
    if (pinned !== null) return pinned;
    for (let tries = 0; tries < handles.length; tries++) {
      const index = next++ % handles.length;
      if (handles[index] !== undefined) return index;
    }
    throw new Error("every replica is stopped");
  };
  const routed: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    const index = pick();
    hits[index] = (hits[index] ?? 0) + 1;
    const original = new URL(request.url);
    const target = new URL(`${original.pathname}${original.search}`, urls[index]);
    return fetch(new Request(target, request));
  };
  return {
    state,
    urls,
    servers,
    url: urls[0] as URL,
    fetch: routed,
    transport: (transportOptions = {}) =>
      new HttpClientTransport(urls[0] as URL, { ...transportOptions, fetch: routed }),
    hits,
    pin(index) {
      pinned = index;
    },
    async stop(index) {
      const handle = handles[index];
      handles[index] = undefined;
      await handle?.close();
    },
    async close() {
      await Promise.all(handles.map((handle) => handle?.close()));
      handles.fill(undefined);
    },
  };
}

/**
 * A `fetch` that sends each `tools/call` POST to the replica `pick(leg)` names (`leg` counts the
 * `tools/call` requests routed so far, from 0) and everything else to the first; `legs` lists the
 * replica each `tools/call` went to, and `restart()` counts legs from 0 again (a new call).
 */
export function toolCallRouter(
  urls: readonly (string | URL)[],
  pick: (leg: number) => number,
): { fetch: typeof fetch; legs: number[]; restart(): void } {
  const legs: number[] = [];
  let leg = 0;
  const route: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    let index = 0;
    if (request.method === "POST") {
      const body = JSON.parse(await request.clone().text()) as { method?: string };
      if (body.method === "tools/call") {
        index = pick(leg++);
        legs.push(index);
      }
    }
    const original = new URL(request.url);
    return fetch(new Request(new URL(`${original.pathname}${original.search}`, urls[index]), request));
  };
  return {
    fetch: route,
    legs,
    restart: () => {
      leg = 0;
    },
  };
}
