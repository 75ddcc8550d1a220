/**
 * Reading the body of an HTTP answer on the client: as UTF-8 text within a size bound, or not at
 * all (released so the connection can be reused).
 */
import { TransportError } from "../transport.js";

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` bytes.
 *
 * @throws TransportError when `Content-Length` or the bytes read exceed `maxBytes` (the rest of
 *   the body is not read).
 */
export async function readText(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new TransportError(`the response body exceeds maxResponseBytes (${maxBytes} bytes)`, {
      httpStatus: response.status,
    });
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await discard(response);
    throw tooLarge();
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** Releases a response body we do not read. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** True for a redirect answer (3xx, or the opaque answer of `redirect: "manual"`). */
export function isRedirect(response: Response): boolean {
  return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
}
