/**
 * The two entries of the Streamable HTTP server, for suites that run every case through both (not
 * part of the package): the Node adapter (`serve`) and the web-standard handler
 * (`createHttpHandler`) mounted on a `node:http` server on 127.0.0.1 through
 * `@hono/node-server`'s request listener, as a user on Node would mount it. Legitimate
 * differences: only `serve` has its own options (path, timeouts, drain) and a 404 for other paths
 * (the web handler answers every path it is mounted on), and only `serve` answers a malformed
 * `Host` itself (in the bridge, the listener refuses it before the handler runs).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Dispatcher } from "../dispatcher.js";
import { serve } from "./node.js";
import { createHttpHandler, type HttpHandlerOptions } from "./server-handler.js";

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

/** The Node adapter, `serve`. */
export const nodeFrontEnd: FrontEnd = (dispatcher, options) => serve(dispatcher, options);

/** One entry, named for the test titles. */
export interface HttpEntry {
  readonly name: string;
  readonly start: FrontEnd;
}

/** Both entries: `describe.each(ENTRIES)("... through $name", ({ start }) => ...)`. */
export const ENTRIES: readonly HttpEntry[] = [
  { name: "the Node adapter", start: nodeFrontEnd },
  { name: "the web handler", start: webFrontEnd },
];
