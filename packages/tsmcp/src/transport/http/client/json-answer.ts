/**
 * Reading the non-streamed HTTP answers of Streamable HTTP on the client: a JSON body that is the
 * response to the request (or a JSON-RPC error for it with a 4xx/5xx), a JSON-RPC error without an
 * id (a refusal of the HTTP request itself) as an `McpError` carrying the real status, the 202 a
 * notification or an answer must get, and redirects, which are never followed. Spec:
 * basic/transports/streamable-http; (2025-11-25) basic/transports §Sending Messages to the Server.
 */
import {
  classifyMessage,
  isErrorResponse,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from "../../../protocol/jsonrpc.js";
import { TransportError } from "../../transport.js";
import { isJsonContentType } from "../media-type.js";
import { idlessError, idlessErrorIn, idlessErrorOf } from "./failures.js";
import { type HttpClientAnswer, isOk, isRedirect } from "./http-answer.js";
import { authorizationRefusal } from "./refusal.js";
import { readText } from "./response-body.js";

/** Throws the `TransportError` of a redirect (3xx) answer to `url`; does nothing otherwise. */
export async function refuseRedirect(response: HttpClientAnswer, url: URL): Promise<void> {
  if (!isRedirect(response)) return;
  await response.discard();
  const location = response.header("location");
  throw new TransportError(
    `HTTP ${response.status} from ${url.href} redirects${location === null ? "" : ` to ${location}`}; ` +
      "redirects are not followed (the request would be resent elsewhere): connect to the final URL",
    { httpStatus: response.status },
  );
}

/**
 * Reads a JSON answer to `request`: its response (a 2xx, or an error response for it with any
 * status).
 *
 * @throws McpError for an id-less JSON-RPC error (its `httpStatus` the answer's); TransportError
 *   for a 2xx body that is not the response to `request`, or a non-2xx without a JSON-RPC error
 *   for it (an `AuthorizationRefusedError` for a 401 or 403 with a challenge).
 */
export async function readJsonAnswer(
  request: JSONRPCRequest,
  response: HttpClientAnswer,
  url: URL,
  maxBytes: number,
): Promise<JSONRPCResponse> {
  const text = await readText(response, maxBytes);
  // Parsed once, for both questions: an id-less error, then the response to `request`.
  let value: unknown;
  let json = true;
  try {
    value = JSON.parse(text);
  } catch {
    json = false;
  }
  const idless = json ? idlessErrorIn(value) : undefined;
  if (idless !== undefined) throw idlessError(idless, response.status);
  const parsed = json ? classifyMessage(value) : undefined;
  if (parsed?.kind === "response" && parsed.message.id === request.id) {
    if (isOk(response) || isErrorResponse(parsed.message)) return parsed.message;
  }
  if (!isOk(response)) throw await withoutError(response, url);
  throw new TransportError(`the JSON body is not the response to request ${JSON.stringify(request.id)}`, {
    httpStatus: response.status,
  });
}

/**
 * The `TransportError` of a non-2xx answer without a JSON-RPC error: an
 * `AuthorizationRefusedError` naming the challenge of a 401 or 403 that has one.
 */
export async function withoutError(response: HttpClientAnswer, url: URL): Promise<TransportError> {
  const refused = await authorizationRefusal(response, url);
  if (refused !== undefined) return refused;
  return new TransportError(`HTTP ${response.status} from ${url.href} without a JSON-RPC error`, {
    httpStatus: response.status,
  });
}

/**
 * Checks the 202 Accepted a POSTed notification or answer (`what`) must get.
 *
 * @throws McpError for an id-less JSON-RPC error body; AuthorizationRefusedError for a 401 or 403
 *   with a challenge; TransportError for any other status.
 */
export async function checkAccepted(
  response: HttpClientAnswer,
  url: URL,
  what: string,
  maxBytes: number,
): Promise<void> {
  if (response.status === 202) {
    await response.discard();
    return;
  }
  if (isJsonContentType(response.header("content-type"))) {
    const error = idlessErrorOf(await readText(response, maxBytes));
    if (error !== undefined) throw idlessError(error, response.status);
  } else {
    await response.discard();
  }
  const refused = await authorizationRefusal(response, url);
  if (refused !== undefined) throw refused;
  throw new TransportError(`the server answered ${what} with HTTP ${response.status}, not 202`, {
    httpStatus: response.status,
  });
}
