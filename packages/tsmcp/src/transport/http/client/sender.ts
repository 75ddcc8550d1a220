/**
 * Which sender an HTTP client transport uses: the user's `fetch` when given; on Node.js the
 * `node:http` sender (found at run time through `process.getBuiltinModule`, so no module of
 * `tsmcp/client` imports a Node built-in and its bundles for other runtimes stay neutral); else the
 * global `fetch`.
 */
import { fetchSender } from "./fetch-sender.js";
import type { HttpSender } from "./http-answer.js";
import { nodeHttpModules, nodeSender } from "./node-sender.js";

/**
 * The sender for `url`.
 *
 * @throws TypeError when no `fetch` is given, the runtime is not Node.js and has no global `fetch`.
 */
export function senderFor(url: URL, userFetch: typeof fetch | undefined): HttpSender {
  if (userFetch !== undefined) return fetchSender(url, userFetch);
  const node = nodeHttpModules();
  if (node !== undefined) return nodeSender(url, node);
  if (typeof globalThis.fetch !== "function") {
    throw new TypeError('HttpClientTransport: no global fetch; pass the "fetch" option');
  }
  return fetchSender(url, globalThis.fetch);
}
