/**
 * Reading a POST body under a byte limit: a declared `Content-Length` over the limit is refused
 * before reading, and a streamed (chunked) body is cut off as soon as it passes the limit, so no
 * more than the limit (plus the one chunk that crossed it) is ever held. Spec: basic/transports/streamable-http (body limits are
 * the server's choice; clients handle 413).
 */

import type { IncomingMessage } from "node:http";

/** The default body limit of the HTTP server: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The outcome of {@link readBodyText}: the text, a body over the limit, undecodable bytes, or a
 * body that never ended (the client went away mid-upload: nobody is left to answer).
 */
export type BodyText =
  | { kind: "text"; text: string }
  | { kind: "too-large" }
  | { kind: "invalid-utf8" }
  | { kind: "aborted" };

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads `request`'s body as UTF-8 text, at most `maxBodyBytes` bytes.
 *
 * @returns `too-large` when `Content-Length` or the streamed size exceeds the limit (the stream is
 *   cancelled), `invalid-utf8` for undecodable bytes, `aborted` when the body stream fails (the
 *   client went away mid-upload), else the text ("" for no body). Never rejects.
 */
export async function readBodyText(request: Request, maxBodyBytes: number): Promise<BodyText> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBodyBytes) {
    return { kind: "too-large" };
  }
  const body = request.body;
  if (body === null) return { kind: "text", text: "" };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch {
      return { kind: "aborted" };
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel().catch(() => {});
      return { kind: "too-large" };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { kind: "text", text: decoder.decode(bytes) };
  } catch {
    return { kind: "invalid-utf8" };
  }
}

/**
 * Reads a `node:http` request body as UTF-8 text, at most `maxBodyBytes` bytes: the same outcomes
 * as {@link readBodyText}, straight from the Node stream (no web stream in between). On
 * `too-large` it stops reading and leaves the rest to the caller (the Node adapter drains or
 * closes the connection); `aborted` when the stream errors or closes before its end. Never rejects.
 */
export function readIncomingText(incoming: IncomingMessage, maxBodyBytes: number): Promise<BodyText> {
  const declared = incoming.headers["content-length"];
  if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBodyBytes) {
    return Promise.resolve({ kind: "too-large" });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onAborted);
      incoming.off("close", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBodyBytes) {
        cleanup();
        incoming.pause();
        resolve({ kind: "too-large" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      try {
        resolve({ kind: "text", text: decoder.decode(bytes) });
      } catch {
        resolve({ kind: "invalid-utf8" });
      }
    };
    const onAborted = () => {
      cleanup();
      resolve({ kind: "aborted" });
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onAborted);
    incoming.on("close", onAborted);
  });
}
