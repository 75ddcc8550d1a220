/**
 * The HTTP client transport's sender on Node.js: `node:http` / `node:https` with a keep-alive
 * Agent, the body read from the response's own events (no web `Request`, `Headers` or streams,
 * which cost about three times the CPU per call of this path). Node's client never follows
 * redirects. The modules come from `process.getBuiltinModule` (Node.js 20.16 and later), so this
 * module imports nothing and `tsmcp/client` stays runtime-neutral: a bundle for a browser or a
 * worker sees no `node:` import, and there {@link nodeHttpModules} finds nothing and the transport
 * uses `fetch`.
 */
import type * as Http from "node:http";
import type * as Https from "node:https";
import type { HttpClientAnswer, HttpMethod, HttpSender } from "./http-answer.js";

/** The built-in modules the Node sender uses. */
export interface NodeHttpModules {
  readonly http: typeof Http;
  readonly https: typeof Https;
}

interface NodeProcess {
  versions?: Record<string, string | undefined>;
  getBuiltinModule?: (id: string) => unknown;
}

/**
 * `node:http` and `node:https` when running on Node.js (with `process.getBuiltinModule`), else
 * undefined. Bun and Deno have their own native `fetch`, which the transport uses there.
 */
export function nodeHttpModules(): NodeHttpModules | undefined {
  const proc = (globalThis as { process?: NodeProcess }).process;
  const versions = proc?.versions;
  if (typeof proc?.getBuiltinModule !== "function" || typeof versions?.node !== "string") return undefined;
  if (versions.bun !== undefined || versions.deno !== undefined) return undefined;
  const http = proc.getBuiltinModule("node:http") as typeof Http | undefined;
  const https = proc.getBuiltinModule("node:https") as typeof Https | undefined;
  return http === undefined || https === undefined ? undefined : { http, https };
}

/** Bodies at most this long (by `Content-Length`) are drained rather than dropped when not read, to keep the connection. */
const DRAIN_BYTES = 64 * 1024;

/** A sender to `url` over `node:http(s)`, with its own keep-alive Agent (destroyed by `close`). */
export function nodeSender(url: URL, modules: NodeHttpModules): HttpSender {
  const secure = url.protocol === "https:";
  const agent = secure
    ? new modules.https.Agent({ keepAlive: true })
    : new modules.http.Agent({ keepAlive: true });
  const request = secure ? modules.https.request : modules.http.request;
  // Computed once: the parts of the URL every request needs (`URL` hostnames of IPv6 literals
  // keep their brackets, which `request` does not want).
  const base = {
    protocol: url.protocol,
    hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port === "" ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    auth:
      url.username === "" && url.password === ""
        ? undefined
        : `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`,
    agent,
  };
  return {
    send(method: HttpMethod, headers: Record<string, string>, body: string | undefined, signal: AbortSignal) {
      return new Promise<HttpClientAnswer>((resolve, reject) => {
        if (signal.aborted) {
          reject(signal.reason);
          return;
        }
        if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
        const req = request({ ...base, method, headers }, (res) => resolve(nodeAnswer(res)));
        // One listener, removed when the exchange is over (the response read or dropped): lighter
        // than the `signal` option's stream plumbing. Aborting destroys the request and its
        // response, which fails a reading in progress.
        const onAbort = () => req.destroy(abortError(signal));
        signal.addEventListener("abort", onAbort, { once: true });
        req.once("close", () => signal.removeEventListener("abort", onAbort));
        req.on("error", reject);
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** A Node response as an {@link HttpClientAnswer}. */
function nodeAnswer(res: Http.IncomingMessage): HttpClientAnswer {
  // Kept from the start: an error while nobody reads the body would otherwise be thrown
  // process-wide; a reading started later sees it.
  let failure: Error | undefined;
  let ended = false;
  res.on("error", (error) => {
    failure ??= error;
  });
  res.on("end", () => {
    ended = true;
  });
  /** Runs `onData` for each chunk until the body ends (true), `onData` returns true (false), or it fails. */
  const consume = (onData: (chunk: Buffer) => boolean) =>
    new Promise<boolean>((resolve, reject) => {
      if (failure !== undefined) return reject(failure);
      if (ended) return resolve(true);
      if (res.destroyed) return reject(connectionLost());
      const done = (error: Error | undefined, result: boolean) => {
        res.off("data", onChunk);
        res.off("end", onEnd);
        res.off("error", onError);
        res.off("close", onClose);
        if (error !== undefined) reject(error);
        else resolve(result);
      };
      const onChunk = (chunk: Buffer) => {
        let stop: boolean;
        try {
          stop = onData(chunk);
        } catch (error) {
          res.destroy();
          done(error as Error, false);
          return;
        }
        if (!stop) return;
        res.destroy();
        done(undefined, false);
      };
      const onEnd = () => done(undefined, true);
      const onError = (error: Error) => done(error, false);
      // Closed without its end: the connection was lost mid-body.
      const onClose = () => {
        if (!ended) done(failure ?? connectionLost(), false);
      };
      res.on("data", onChunk);
      res.on("end", onEnd);
      res.on("error", onError);
      res.on("close", onClose);
    });
  return {
    status: res.statusCode ?? 0,
    header(name) {
      const value = res.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
    async text(maxBytes) {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      await consume((chunk) => {
        size += chunk.length;
        if (size > maxBytes) {
          over = true;
          return true;
        }
        chunks.push(chunk);
        return false;
      });
      if (over) return undefined;
      const text =
        chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8");
      return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    },
    read(onText) {
      const decoder = new TextDecoder();
      return consume((chunk) => onText(decoder.decode(chunk, { stream: true })));
    },
    async discard() {
      if (ended || res.destroyed) return;
      const length = Number(res.headers["content-length"]);
      if (res.complete || (Number.isInteger(length) && length <= DRAIN_BYTES)) res.resume();
      else res.destroy();
    },
  };
}

function connectionLost(): Error {
  return Object.assign(new Error("the connection closed before the response body ended"), {
    code: "ECONNRESET",
  });
}

/** What an aborted request fails with (the callers report the signal's own reason). */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error("the request was aborted", { cause: signal.reason }), {
    name: "AbortError",
  });
}
