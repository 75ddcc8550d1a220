/**
 * The entries of the Streamable HTTP server, for suites that run every case through each (not
 * part of the package), each a real server on 127.0.0.1 with the endpoint at `/mcp`: the Node
 * adapter (`serve`); the web-standard handler (`createHttpHandler`) behind `@hono/node-server`'s
 * request listener, as a user on Node would mount it; the same handler in a Hono app
 * (`app.all("/mcp", (c) => handler(c.req.raw))`); the `node:http` listener
 * (`createNodeListener`) on a plain `node:http` server; an Express app (`app.all("/mcp",
 * mcpExpress(...))`, no body parser); a Fastify app with the `mcpFastify` plugin.
 *
 * Legitimate differences: only `serve` has its own options (path, timeouts, drain). Other paths
 * get a 404 from `serve`, Express, Fastify and Hono, each in its own format; the web handler and
 * the plain listener answer every path they are given. A malformed `Host` is answered -32600
 * (HTTP 400) by `serve`, the plain listener, Express and Fastify (the listener checks it before
 * the handler); behind `@hono/node-server` (the web handler and Hono) the bridge refuses it
 * before the handler runs, with its own 400.
 */
import { createServer, type Server as NodeHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import type { Dispatcher } from "../../dispatcher.js";
import { createHttpHandler, type HttpHandlerOptions } from "../server/server-handler.js";
import { mcpExpress } from "./express.js";
import { mcpFastify } from "./fastify.js";
import { serve } from "./node.js";
import { createNodeListener } from "./node-listener.js";

/** A served handler: its URL, port and how to stop it. */
export interface Served {
  readonly url: URL;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `dispatcher` through one of the two entries. */
export type FrontEnd = (dispatcher: Dispatcher, options?: HttpHandlerOptions) => Promise<Served>;

/** The web-standard handler behind a `node:http` listener on 127.0.0.1, endpoint `/mcp`. */
export const webFrontEnd: FrontEnd = async (dispatcher, options) => {
  const handler = createHttpHandler(dispatcher, options);
  const server = createServer(
    getRequestListener((request) => handler(request), { overrideGlobalObjects: false }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    port,
    close: () =>
      new Promise<void>((resolve) => {
        handler.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** Listens on 127.0.0.1 (an ephemeral port) and serves `/mcp`; `stop` runs before the server closes. */
export async function listenLocal(server: NodeHttpServer, stop: () => void = () => {}): Promise<Served> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    port,
    close: () =>
      new Promise<void>((resolve) => {
        stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The web-standard handler in a Hono app, behind `@hono/node-server`. */
export const honoFrontEnd: FrontEnd = (dispatcher, options) => {
  const handler = createHttpHandler(dispatcher, options);
  const app = new Hono();
  app.all("/mcp", (c) => handler(c.req.raw));
  app.all("/.well-known/*", (c) => handler(c.req.raw));
  const server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));
  return listenLocal(server, () => handler.close());
};

/** The `node:http` listener on a plain `node:http` server. */
export const listenerFrontEnd: FrontEnd = (dispatcher, options) => {
  const listener = createNodeListener(dispatcher, options);
  return listenLocal(createServer(listener), () => listener.close());
};

/** An Express app with the handler on `/mcp` (every method) and the metadata paths. */
export const expressFrontEnd: FrontEnd = (dispatcher, options) => {
  const handler = mcpExpress(dispatcher, options);
  const app = express();
  app.all(["/mcp", "/.well-known/oauth-protected-resource{/*rest}"], handler);
  return listenLocal(createServer(app), () => handler.close());
};

/** A Fastify app with the plugin on `/mcp`. */
export const fastifyFrontEnd: FrontEnd = async (dispatcher, options) => {
  const app = Fastify({ logger: false });
  await app.register(mcpFastify(dispatcher, options));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    port,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
};

/** The Node adapter, `serve`. */
export const nodeFrontEnd: FrontEnd = (dispatcher, options) => serve(dispatcher, options);

/** One entry, named for the test titles. */
export interface HttpEntry {
  readonly name: string;
  readonly start: FrontEnd;
}

/** Every entry: `describe.each(ENTRIES)("... through $name", ({ start }) => ...)`. */
export const ENTRIES: readonly HttpEntry[] = [
  { name: "the Node adapter", start: nodeFrontEnd },
  { name: "the web handler", start: webFrontEnd },
  { name: "Hono", start: honoFrontEnd },
  { name: "the node:http listener", start: listenerFrontEnd },
  { name: "Express", start: expressFrontEnd },
  { name: "Fastify", start: fastifyFrontEnd },
];
