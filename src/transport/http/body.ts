/**
 * Reading a POST body under a byte limit: a declared `Content-Length` over the limit is refused
 * before reading, and a streamed (chunked) body is cut off as soon as it passes the limit, so no
 * more than the limit (plus the one chunk that crossed it) is ever held. Spec: §3.1 (body limits are
 * the server's choice; clients handle 413).
 */

/** The default body limit of the HTTP server: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The outcome of {@link readBodyText}. */
export type BodyText = { kind: "text"; text: string } | { kind: "too-large" } | { kind: "invalid-utf8" };

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads `request`'s body as UTF-8 text, at most `maxBodyBytes` bytes.
 *
 * @returns `too-large` when `Content-Length` or the streamed size exceeds the limit (the stream is
 *   cancelled), `invalid-utf8` for undecodable bytes, else the text ("" for no body).
 * @throws whatever the body stream throws (for example when the client goes away mid-upload).
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
    const { done, value } = await reader.read();
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
