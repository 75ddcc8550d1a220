/**
 * The global options every command shares (`--header`, `--protocol`, `--timeout`, `--verbose`,
 * the answer options) and the connected `Client` they make. Headers ride on every HTTP request
 * through the transport's authorization hook, so the discovery probe carries them too.
 * Spec: basic/transports §Streamable HTTP, basic/versioning.
 */
import { readFileSync } from "node:fs";
import {
  Client,
  type ClientOptions,
  PROTOCOL_VERSION_MODES,
  type ProtocolVersionMode,
  RequestTimeoutError,
} from "tsmcp/client";
import type { HttpClientAuth, Transport } from "tsmcp/transport";
import type { JSONRPCMessage, LoggingMessageNotificationParams } from "tsmcp/types";
import {
  type Asker,
  answerCallbacks,
  type ElicitContent,
  parseAnswer,
  parseAnswersFile,
  type ScriptedAnswers,
  type UnansweredInputError,
} from "./answers.js";
import { type AuthOptions, type CliAuth, type SignInMode, signIn } from "./auth.js";
import { liveness } from "./liveness.js";
import { rootUri } from "./roots.js";
import { type ForwardedStdio, stdioWithForwardedStderr } from "./server-stderr.js";
import { type CliTarget, parseTarget, UsageError } from "./target.js";
import { identityOf } from "./task-memory.js";
import { safeText } from "./terminal.js";

/** The global options, as commander hands them over. */
export interface GlobalOptions extends AuthOptions {
  json?: boolean;
  header: string[];
  protocol: string;
  timeout?: string;
  verbose: number;
  /** `--quiet`: no spinner or progress on stderr. */
  quiet?: boolean;
  answer: string[];
  answers?: string;
  decline: string[];
  sampleReply?: string;
  root: string[];
}

/**
 * Where the command writes what is not its result: rounds, logs, progress, warnings, errors. The
 * text may hold a server's words, so its control characters are shown as escapes.
 */
export function note(text: string): void {
  liveness.clear();
  process.stderr.write(`${safeText(text)}\n`);
}

/** Reads `--header k:v` values into a header record. */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf(":");
    if (at <= 0) throw new UsageError(`--header must be name:value, got ${JSON.stringify(value)}`);
    headers[value.slice(0, at).trim().toLowerCase()] = value.slice(at + 1).trim();
  }
  return headers;
}

/** The `--header` values on every request, over what `oauth` (if any) adds. */
function withHeaders(headers: Record<string, string>, oauth: HttpClientAuth | undefined): HttpClientAuth {
  return {
    headers: async (request) => ({ ...(await oauth?.headers(request)), ...headers }),
    onChallenge: (challenge) => oauth?.onChallenge(challenge) ?? false,
  };
}

/** One wire message on one line (`-vv`): `->` sent, `<-` received. */
export function writeMessage(message: JSONRPCMessage, direction: "sent" | "received"): void {
  note(`${direction === "sent" ? "->" : "<-"} ${JSON.stringify(message)}`);
}

/** The answers the options script: `--answers` file first, then each `--answer` over it. */
/** The scripted answers the options give (`--answer`, `--answers`, `--decline`, `--sample-reply`, `--root`). */
export function scripted(options: GlobalOptions): ScriptedAnswers {
  const answers = new Map<string, ElicitContent>();
  try {
    if (options.answers !== undefined) {
      const json: unknown = JSON.parse(readFileSync(options.answers, "utf8"));
      for (const [key, content] of parseAnswersFile(json)) answers.set(key, content);
    }
    for (const text of options.answer) {
      const [key, content] = parseAnswer(text);
      answers.set(key, content);
    }
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return {
    answers,
    declines: new Set(options.decline),
    sampleReply: options.sampleReply,
    roots: options.root.map((root) => rootUri(root)),
  };
}

/** Writes a server log message to stderr: `[level logger] data`. */
export function writeLog(message: LoggingMessageNotificationParams): void {
  const data = typeof message.data === "string" ? message.data : JSON.stringify(message.data);
  note(`[${message.level}${message.logger === undefined ? "" : ` ${message.logger}`}] ${data}`);
}

/**
 * Words a failure to connect for the person at the terminal: a server that answered nothing in
 * time timed out on `server/discover` (the `"auto"` mode then also tries the 2025-era handshake,
 * which is not what went wrong), and a command that exited before answering is no MCP server.
 */
function connectFailure(error: unknown, mode: string, received: number, target: CliTarget): unknown {
  if (error instanceof RequestTimeoutError && mode === "auto" && received === 0) {
    return new RequestTimeoutError("server/discover", error.timeoutMs);
  }
  if (
    target.kind === "command" &&
    received === 0 &&
    error instanceof Error &&
    error.name === "ServerProcessExitedError"
  ) {
    const { exitCode } = error as Error & { exitCode?: number | null };
    return new Error(
      `the command "${target.line}" exited${exitCode === null || exitCode === undefined ? "" : ` with code ${exitCode}`} without answering: it is not an MCP server over stdio (whatever it printed on stdout was not MCP; run it alone to see)`,
      { cause: error },
    );
  }
  return error;
}

/** A connected client, and what to release with it. */
export interface Connection {
  readonly client: Client;
  /** True once this command obtained OAuth tokens (signed in or refreshed). */
  readonly obtainedTokens: boolean;
  /** The digest of the identity the command presents (`identityOf`): its headers and sign-in. */
  readonly identity: string;
  /** Closes the client and stops a sign-in listener. */
  close(): Promise<void>;
}

/**
 * Connects to the target with the options' headers, protocol mode, timeout and answers; `asker`
 * asks a person when no scripted answer fits (undefined without a terminal); `unanswered` collects
 * the questions nothing answered. A URL target signs in with OAuth when the server asks (`signIn`
 * says how), unless `--header` gives an `authorization` header. A command target's stderr is
 * written to the command's stderr line by line, escaped like the rest of its output.
 *
 * @throws UsageError for a bad option or target; SignInRequiredError when the server needs a
 *   sign-in `signIn` does not allow; whatever `Client.connect` throws.
 */
export async function connect(
  targetText: string,
  options: GlobalOptions,
  asker: Asker | undefined,
  unanswered: UnansweredInputError[],
  signInMode: SignInMode,
): Promise<Connection> {
  const target = parseTarget(targetText);
  liveness.configure({ quiet: options.quiet === true });
  const mode = options.protocol;
  if (!PROTOCOL_VERSION_MODES.includes(mode as ProtocolVersionMode)) {
    throw new UsageError(`--protocol must be one of ${PROTOCOL_VERSION_MODES.join(", ")}, got ${mode}`);
  }
  const headers = parseHeaders(options.header);
  if (Object.keys(headers).length > 0 && target.kind !== "url") {
    throw new UsageError("--header needs an http(s) URL target");
  }
  let timeoutMs: number | undefined;
  if (options.timeout !== undefined) {
    timeoutMs = Number(options.timeout);
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new UsageError(`--timeout must be a positive number of milliseconds, got ${options.timeout}`);
    }
  }
  const verbose = options.verbose > 0 || asker !== undefined;
  const oauth: CliAuth | undefined =
    target.kind === "url" && headers.authorization === undefined
      ? await signIn(options, target.url, signInMode, note)
      : undefined;
  const auth = Object.keys(headers).length > 0 ? withHeaders(headers, oauth?.auth) : oauth?.auth;
  const clientOptions: ClientOptions = {
    ...answerCallbacks(scripted(options), asker, verbose ? note : () => {}, unanswered),
    clientInfo: { name: "tsmcp-cli", version: "0.1.0" },
    protocolVersion: mode as ProtocolVersionMode,
    onLog: writeLog,
    logger: { warn: (message) => note(`warning: ${message}`) },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(auth === undefined ? {} : { auth }),
    onMessage: (message, direction) => {
      if (direction === "received") received++;
      liveness.observe(message, direction);
      if (options.verbose > 1) writeMessage(message, direction);
    },
  };
  let received = 0;
  let stdio: ForwardedStdio | undefined;
  let reach: URL | Transport;
  if (target.kind === "url") reach = target.url;
  else {
    stdio = stdioWithForwardedStderr(target.command, note);
    reach = stdio.transport;
  }
  let client: Client;
  try {
    client = await Client.connect(reach, clientOptions);
  } catch (error) {
    await stdio?.transport.close();
    await stdio?.forwarded;
    await oauth?.close();
    throw connectFailure(error, mode, received, target);
  }
  if (client.era === "legacy" && client.serverCapabilities?.logging !== undefined) {
    // A 2025-era server sends log messages at the level the session asked for, not per request.
    await client.setLoggingLevel(options.verbose > 0 ? "debug" : "info").catch(async (error: unknown) => {
      await client.close();
      await stdio?.forwarded;
      await oauth?.close();
      throw error;
    });
  }
  if (options.verbose > 0) {
    note(
      `connected to ${client.serverInfo?.name ?? "a server"} (${client.protocolVersion}, ${client.era} era)`,
    );
  }
  const identity = identityOf(
    headers,
    oauth === undefined
      ? undefined
      : {
          tokenFile: oauth.file,
          clientId: options.clientId,
          issuer: options.issuer,
          clientMetadataUrl: options.clientMetadataUrl,
        },
  );
  return {
    client,
    identity,
    get obtainedTokens() {
      return oauth?.obtainedTokens === true;
    },
    close: async () => {
      try {
        await client.close();
        await stdio?.forwarded;
      } finally {
        await oauth?.close();
      }
    },
  };
}
