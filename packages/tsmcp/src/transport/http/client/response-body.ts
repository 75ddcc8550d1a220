/**
 * Reading the body of an HTTP answer on the client: as UTF-8 text within a size bound, or not at
 * all (released so the connection can be reused).
 */
import { TransportError } from "../../transport.js";
import type { HttpClientAnswer } from "./http-answer.js";

/**
 * Reads an answer's body as UTF-8 text, at most `maxBytes` bytes.
 *
 * @throws TransportError when `Content-Length` or the bytes read exceed `maxBytes` (the rest of
 *   the body is not read).
 */
export async function readText(answer: HttpClientAnswer, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new TransportError(`the response body exceeds maxResponseBytes (${maxBytes} bytes)`, {
      httpStatus: answer.status,
    });
  const declared = answer.header("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await answer.discard();
    throw tooLarge();
  }
  const text = await answer.text(maxBytes);
  if (text === undefined) throw tooLarge();
  return text;
}
