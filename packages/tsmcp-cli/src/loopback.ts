/**
 * The loopback redirect listener of a sign-in: an HTTP server on 127.0.0.1 (an ephemeral port, or
 * the one asked for) that waits for the authorization server to send the browser back to
 * `/callback`, answers a small page saying the tab can be closed, and shuts down. Only an
 * authorization response is taken: a request with the expected `state` and a `code` or an `error`
 * (RFC 6749 §4.1.2, §4.1.2.1); any other request (a port scan, a prefetch, a forged hit, a target
 * that is not a URL) gets 400 or 404 and the listener keeps waiting. Spec: basic/authorization
 * §Authorization Flow Steps; RFC 8252 §7.3 (loopback redirection, any port).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The path the authorization server sends the browser back to. */
export const CALLBACK_PATH = "/callback";

/** A listener waiting for one redirect. */
export interface LoopbackListener {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUri: string;
  /**
   * Resolves with the full URL the browser was sent back to: the first request to `/callback`
   * that carries `state` (equal to `expectedState` when given) and a `code` or an `error`; rejects
   * when `signal` aborts.
   */
  callback(signal: AbortSignal, expectedState?: string): Promise<URL>;
  /** Stops listening. Idempotent. */
  close(): Promise<void>;
}

const page = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * Listens on 127.0.0.1:`port` (0: an ephemeral port).
 *
 * @throws the listen error (EADDRINUSE, ...) as a rejection.
 */
export async function listenForRedirect(port = 0): Promise<LoopbackListener> {
  let deliver: ((url: URL) => void) | undefined;
  const arrived = new Promise<URL>((resolve) => {
    deliver = resolve;
  });
  let expected: string | undefined;
  const server: Server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", redirectUri);
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("Bad request\n");
      return;
    }
    if (req.method !== "GET" || url.pathname !== CALLBACK_PATH || deliver === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
      return;
    }
    const query = url.searchParams;
    const state = query.get("state");
    if (
      state === null ||
      (expected !== undefined && state !== expected) ||
      !(query.has("code") || query.has("error"))
    ) {
      res.writeHead(400, { "content-type": "text/plain" }).end("Not an authorization response\n");
      return;
    }
    const failed = url.searchParams.has("error");
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", connection: "close" })
      .end(
        failed
          ? page("Sign-in failed", "tsmcp was told the sign-in did not succeed. You can close this tab.")
          : page("Signed in", "tsmcp has what it needs. You can close this tab."),
      );
    deliver(url);
    deliver = undefined;
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH}`;
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    return closed;
  };
  return {
    redirectUri,
    close,
    async callback(signal, expectedState) {
      signal.throwIfAborted();
      expected = expectedState;
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_resolve, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
      });
      try {
        return await Promise.race([arrived, aborted]);
      } finally {
        if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
        void close();
      }
    },
  };
}
