/**
 * Reading the body of an HTTP answer on the client: as UTF-8 text within a size bound, or not at
 * all (released so the connection can be reused).
 */
import { TransportError } from "../../transport.js";
import type { HttpClientAnswer } from "./http-answer.js";

/**
 * Reads an answer's body as UTF-8 text, at most `maxBytes` bytes: a `Content-Length` over the
 * limit is refused before any of the body is read, and a body that grows past it is not read
 * further (its connection is released).
 *
 * @throws what `tooLarge` makes when the body is too large; by default a TransportError (with the
 *   answer's status) naming `maxResponseBytes`. The connection's failure.
 */
export async function readText(
  answer: HttpClientAnswer,
  maxBytes: number,
  tooLarge: () => Error = () =>
    new TransportError(`the response body exceeds maxResponseBytes (${maxBytes} bytes)`, {
      httpStatus: answer.status,
    }),
): Promise<string> {
  const declared = answer.header("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await answer.discard();
    throw tooLarge();
  }
  const text = await answer.text(maxBytes);
  if (text === undefined) throw tooLarge();
  return text;
}
