/**
 * The loopback redirect listener of a sign-in: an HTTP server on 127.0.0.1 (an ephemeral port, or
 * the one asked for) that waits for the authorization server to send the browser back to
 * `/callback`, answers a small page saying the tab can be closed, and shuts down. It takes nothing
 * until its flow arms it with the `state` of the authorization request, and then only an
 * authorization response with that `state` and a `code` or an `error` (RFC 6749 §4.1.2,
 * §4.1.2.1): any other request (a hit before the flow asked the user, as during client
 * registration; a port scan, a prefetch, a forged hit with another `state`; a target that is not a
 * URL) gets 400 or 404 and the listener keeps waiting. Any local process can reach the port.
 * Spec: basic/authorization §Authorization Flow Steps; RFC 8252 §7.3 (loopback redirection, any
 * port), §8.9; RFC 6749 §10.12 (CSRF).
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
   * Arms the listener with the flow's `expectedState` (the `state` of its authorization request)
   * and resolves with the full URL the browser was sent back to: the first request to `/callback`
   * after this call that carries exactly that `state` and a `code` or an `error`. Rejects when
   * `signal` aborts. Call it once.
   */
  callback(signal: AbortSignal, expectedState: string): Promise<URL>;
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
  /** Set while a flow waits (armed): where its redirect goes and the `state` it expects. */
  let waiting: { deliver: (url: URL) => void; state: string } | undefined;
  const server: Server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", redirectUri);
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("Bad request\n");
      return;
    }
    if (req.method !== "GET" || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
      return;
    }
    const query = url.searchParams;
    // Nothing is taken before the flow is armed, nor with another state.
    if (
      waiting === undefined ||
      query.get("state") !== waiting.state ||
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
    const { deliver } = waiting;
    waiting = undefined;
    deliver(url);
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
      if (typeof expectedState !== "string" || expectedState === "") {
        throw new TypeError("the redirect listener needs the state of the authorization request");
      }
      const arrived = new Promise<URL>((deliver) => {
        waiting = { deliver, state: expectedState };
      });
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_resolve, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
      });
      try {
        return await Promise.race([arrived, aborted]);
      } finally {
        waiting = undefined;
        if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
        void close();
      }
    },
  };
}
