/**
 * Reading a POST body under a byte limit: a declared `Content-Length` over the limit is refused
 * before reading, and a streamed (chunked) body is cut off as soon as it passes the limit, so no
 * more than the limit (plus the one chunk that crossed it) is ever held. One {@link BoundedBody}
 * holds the limit and the decoding; the web reader here and the Node adapter's reader only feed it
 * chunks. Spec: basic/transports/streamable-http sets no body limit; it is the server's choice, and
 * clients handle 413.
 */

/** The default body limit of the HTTP server: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

import type { BodyText } from "../exchange.js";

export type { BodyText };

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The limit and the decoding of one body, fed chunk by chunk by a stream reader.
 */
export class BoundedBody {
  readonly #maxBodyBytes: number;
  readonly #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(maxBodyBytes: number) {
    this.#maxBodyBytes = maxBodyBytes;
  }

  /**
   * True when a `Content-Length` header value declares more than the limit (the body is then
   * refused before reading). An absent or malformed value declares nothing.
   */
  declaresTooMuch(contentLength: string | null | undefined): boolean {
    if (contentLength === null || contentLength === undefined) return false;
    const declared = contentLength.trim();
    return /^\d+$/.test(declared) && Number(declared) > this.#maxBodyBytes;
  }

  /** Keeps `chunk`; false (and the chunk dropped) once the body has passed the limit. */
  push(chunk: Uint8Array): boolean {
    this.#size += chunk.byteLength;
    if (this.#size > this.#maxBodyBytes) return false;
    this.#chunks.push(chunk);
    return true;
  }

  /** The whole body as UTF-8 text, or `invalid-utf8`. */
  text(): BodyText {
    const chunks = this.#chunks;
    let bytes: Uint8Array;
    if (chunks.length === 1) {
      bytes = chunks[0] as Uint8Array;
    } else {
      bytes = new Uint8Array(this.#size);
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
    }
    try {
      return { kind: "text", text: decoder.decode(bytes) };
    } catch {
      return { kind: "invalid-utf8" };
    }
  }
}

/**
 * Reads `request`'s body as UTF-8 text, at most `maxBodyBytes` bytes.
 *
 * @returns `too-large` when `Content-Length` or the streamed size exceeds the limit (the stream is
 *   cancelled), `invalid-utf8` for undecodable bytes, `aborted` when the body stream fails (the
 *   client went away mid-upload), `already-read` when the body was read (or is being read) before,
 *   else the text ("" for no body). Never rejects.
 */
export async function readBodyText(request: Request, maxBodyBytes: number): Promise<BodyText> {
  const body = new BoundedBody(maxBodyBytes);
  if (body.declaresTooMuch(request.headers.get("content-length"))) return { kind: "too-large" };
  if (request.bodyUsed || request.body?.locked === true) return { kind: "already-read" };
  if (request.body === null) return { kind: "text", text: "" };
  const reader = request.body.getReader();
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch {
      return { kind: "aborted" };
    }
    if (next.done) return body.text();
    if (!body.push(next.value)) {
      await reader.cancel().catch(() => {});
      return { kind: "too-large" };
    }
  }
}
