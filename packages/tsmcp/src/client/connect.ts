/**
 * What `Client.connect` accepts, and the transport each target becomes: a URL -> Streamable HTTP,
 * a dispatcher (`Server`, `MCPServer`) -> in-memory, a command -> stdio, a `Transport` -> itself.
 * stdio needs Node.js, so it is loaded from tsmcp/stdio only when the target is a command: this
 * module, and tsmcp/client with it, imports nothing Node-only.
 */
import { stderrLogger } from "../protocol/logger.js";
import { parseHttpUrl } from "../protocol/options.js";
import { withTraceFields } from "../telemetry/log-fields.js";
import { type Dispatcher, isDispatcher } from "../transport/dispatcher.js";
import { HttpClientTransport } from "../transport/http/client/client.js";
import type { HttpClientAuth } from "../transport/http/client/client-auth.js";
import { InMemoryTransport } from "../transport/memory.js";
import { isTransport, type Transport } from "../transport/transport.js";
import type { ClientLogger } from "./logger.js";

/**
 * The `onError` of the transports `Client.connect` builds: a problem that belongs to no request
 * (the GET stream failing, a notification handler that threw, an invalid message from a stdio server) goes to
 * the client's logger at `warn`, with the error in the `error` field.
 */
export function reportToLogger(logger: ClientLogger | undefined): (error: Error) => void {
  return (error) =>
    withTraceFields(logger ?? stderrLogger).warn(
      `the connection to the server had a problem outside any request: ${error.message}`,
      { error },
    );
}

/** A stdio server to spawn. */
export interface StdioCommand {
  /** The executable. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /**
   * Variables added to its environment, over the few it inherits from this process
   * (`DEFAULT_INHERITED_ENV_VARS` of tsmcp/stdio: `PATH`, `HOME` and the like); the rest of this
   * process's environment is not passed.
   */
  env?: Record<string, string>;
  /** Its working directory. */
  cwd?: string;
}

/** Anything `Client.connect` can reach a server through. */
export type ConnectTarget = string | URL | Dispatcher | StdioCommand | Transport;

/**
 * The transport for a target. A command spawns its server through tsmcp/stdio, imported on demand
 * (the package's own entry; outside Node.js, without the `"node"` export condition, it resolves to a
 * stand-in that throws "tsmcp/stdio needs Node.js", so a browser bundle never reaches a child process).
 *
 * `auth` goes to the Streamable HTTP transport of a URL; with any other target it is an error
 * (a `Transport` of the caller's own carries its own authorization). `onError` receives the
 * problems that belong to no request of a transport built here (URL, command); a `Transport` of
 * the caller's own keeps its own `onError`.
 *
 * @throws TypeError (as a rejection) for anything else, or a string that is not an absolute http(s)
 *   URL: `Client.connect target must be an absolute http(s) URL, got "not a url"`; for `auth` with
 *   a target that is no URL.
 */
export async function resolveTransport(
  target: ConnectTarget,
  auth?: HttpClientAuth,
  onError?: (error: Error) => void,
): Promise<Transport> {
  if (typeof target === "string" || target instanceof URL) {
    const url = parseHttpUrl("Client.connect target", target);
    const transport = new HttpClientTransport(url, auth === undefined ? {} : { auth });
    if (onError !== undefined) transport.onError = onError;
    return transport;
  }
  if (auth !== undefined) {
    throw new TypeError(
      'Client option "auth" needs a URL target (Streamable HTTP); pass a Transport its own auth',
    );
  }
  if (isTransport(target)) return target;
  if (isDispatcher(target)) return new InMemoryTransport(target);
  if (typeof target === "object" && target !== null && typeof (target as StdioCommand).command === "string") {
    const { command, args, env, cwd } = target as StdioCommand;
    const { StdioClientTransport } = await import("tsmcp/stdio");
    const transport = new StdioClientTransport({
      command,
      ...(args === undefined ? {} : { args }),
      ...(env === undefined ? {} : { env }),
      ...(cwd === undefined ? {} : { cwd }),
    });
    if (onError !== undefined) transport.onError = onError;
    return transport;
  }
  throw new TypeError(
    "Client.connect: expected a URL, a Server, a stdio command ({ command, args }) or a Transport",
  );
}
