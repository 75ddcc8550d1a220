/**
 * Signing in to a protected HTTP server from the command line, on the public OAuth client: an
 * `OAuthClientProvider` whose user's step prints the authorization URL on stderr, opens the browser
 * (unless `--no-open`) and waits on a loopback redirect listener; tokens (and the client
 * registration) kept in a `FileTokenStore`, one file per server under the config directory.
 * `tsmcp login` always signs in afresh; other commands use what is stored, sign in through the
 * browser on a terminal, and otherwise fail with {@link SignInRequiredError}. The client is
 * identified however the authorization server allows: `--client-id`/`--client-secret`
 * (pre-registered), `--client-metadata-url` (a Client ID Metadata Document), or Dynamic Client
 * Registration. Spec: basic/authorization, basic/authorization/client-registration; RFC 8252.
 */

import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import open from "open";
import {
  AuthorizationCodeGrant,
  FileTokenStore,
  OAuthClientProvider,
  type OAuthGrant,
  type PreRegisteredClient,
  type RedirectHandler,
  type TokenStore,
} from "tsmcp/client/auth";
import type { HttpClientAuth } from "tsmcp/transport";
import { TsmcpError } from "tsmcp/types";
import { CALLBACK_PATH, type LoopbackListener, listenForRedirect } from "./loopback.js";
import { UsageError } from "./target.js";
import { isOpenable, safeText } from "./terminal.js";

/** The environment variable naming the config directory (below `--config-dir`, above XDG). */
export const CONFIG_DIR_ENV = "TSMCP_CONFIG_DIR";

/** How a command may sign in: afresh (`login`), through the browser (a terminal), or not at all. */
export type SignInMode = "login" | "interactive" | "never";

/** The auth options, as commander hands them over. */
export interface AuthOptions {
  configDir?: string;
  callbackPort?: string;
  clientId?: string;
  clientSecret?: string;
  issuer?: string;
  clientMetadataUrl?: string;
  /** False with `--no-open`. */
  open?: boolean;
}

/** A server needs a sign-in that this command may not run (no terminal): run `tsmcp login`. */
export class SignInRequiredError extends TsmcpError {
  override readonly name = "SignInRequiredError";
  /** The command's stable code for this failure, `"ERR_SIGN_IN_REQUIRED"`. */
  override readonly code: string = "ERR_SIGN_IN_REQUIRED";

  constructor(
    /** The server's URL. */
    readonly url: string,
  ) {
    super(`not signed in to ${url} (or the sign-in has expired): run \`tsmcp login ${url}\` first`);
  }
}

/**
 * The config directory: `--config-dir` (or `$TSMCP_CONFIG_DIR`), else `$XDG_CONFIG_HOME/tsmcp`,
 * else `~/.config/tsmcp`.
 */
export function configDir(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit !== undefined && explicit !== "") return resolve(explicit);
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "tsmcp");
  return join(homedir(), ".config", "tsmcp");
}

/** The token file of the server at `url`: `<config>/tokens/<host and path>-<hash>.json`. */
export function tokenFile(dir: string, url: URL): string {
  const readable = `${url.host}${url.pathname}`.replace(/[^A-Za-z0-9.-]+/g, "_").replace(/_+$/, "");
  const hash = createHash("sha256").update(url.href).digest("hex").slice(0, 12);
  return join(dir, "tokens", `${readable}-${hash}.json`);
}

/** Forgets what is stored for `url`; true when there was something. */
export function forget(options: AuthOptions, url: URL): boolean {
  const file = tokenFile(configDir(options.configDir), url);
  try {
    rmSync(file);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return false;
    throw error;
  }
}

/** The pre-registered client the options give, if any. */
function preRegistered(options: AuthOptions): PreRegisteredClient | undefined {
  if (options.clientId === undefined) {
    if (options.clientSecret !== undefined) throw new UsageError("--client-secret needs --client-id");
    return undefined;
  }
  if (options.clientSecret !== undefined && options.issuer === undefined) {
    throw new UsageError(
      "--client-secret needs --issuer (the authorization server the secret belongs to; it is sent nowhere else)",
    );
  }
  return {
    clientId: options.clientId,
    ...(options.clientSecret === undefined ? {} : { clientSecret: options.clientSecret }),
    ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
  };
}

/**
 * The store for one command: `login` ignores the tokens held before it (it signs in afresh);
 * `never` refuses to register a client it could not use (there is no one to sign in); otherwise
 * `beforeRegistering` runs when no client is stored (one is about to be registered).
 */
function storeFor(
  file: string,
  mode: SignInMode,
  url: string,
  onStored: () => void,
  beforeRegistering: () => Promise<void>,
): TokenStore {
  const inner = new FileTokenStore(file);
  let fresh = mode !== "login";
  return {
    getTokens: async (key) => (fresh ? inner.getTokens(key) : undefined),
    setTokens: async (key, tokens) => {
      await inner.setTokens(key, tokens);
      fresh = true;
      if (tokens !== undefined) onStored();
    },
    getClient: async (issuer) => {
      const client = await inner.getClient(issuer);
      if (client === undefined && mode === "never") throw new SignInRequiredError(url);
      if (client === undefined) await beforeRegistering();
      return client;
    },
    setClient: (issuer, client) => inner.setClient(issuer, client),
  };
}

/** A provider and what to release once the command is done. */
export interface CliAuth {
  readonly auth: HttpClientAuth;
  /** The token file. */
  readonly file: string;
  /** True once this command obtained tokens (signed in or refreshed). */
  readonly obtainedTokens: boolean;
  /** Stops the redirect listener, if one runs. */
  close(): Promise<void>;
}

/**
 * The OAuth provider for the server at `url`. The redirect listener is opened only when a sign-in
 * needs it (the server challenged and no stored token or refresh sufficed), never for a server
 * that asks for none, so `--callback-port` matters only then.
 *
 * @throws UsageError for a bad `--callback-port` or `--client-*` combination. The listen error
 *   (the callback port is taken) fails the sign-in that needs the listener.
 */
export async function signIn(
  options: AuthOptions,
  url: URL,
  mode: SignInMode,
  note: (text: string) => void,
): Promise<CliAuth> {
  let port = 0;
  if (options.callbackPort !== undefined) {
    port = Number(options.callbackPort);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new UsageError(`--callback-port must be a port number (1-65535), got ${options.callbackPort}`);
    }
  }
  const client = preRegistered(options);
  const dir = configDir(options.configDir);
  const file = tokenFile(dir, url);
  mkdirSync(join(dir, "tokens"), { recursive: true, mode: 0o700 });
  let listening: Promise<LoopbackListener> | undefined;
  const listen = () => {
    listening ??= listenForRedirect(port);
    return listening;
  };
  // Nothing is ever redirected to this URI without a listener: the user's step refuses first.
  const placeholder = `http://127.0.0.1:${port === 0 ? 1 : port}${CALLBACK_PATH}`;
  let redirectUri = placeholder;
  // What the grant registers the client with: one array, updated in place once the listener
  // listens, so that a registration, which reads it after the store found no client, sees the
  // listener's URI.
  const redirectUris = [placeholder];
  const useListener = async () => {
    redirectUri = (await listen()).redirectUri;
    redirectUris[0] = redirectUri;
  };
  const redirect: RedirectHandler = async (authorizationUrl, { signal }) => {
    if (mode === "never") throw new SignInRequiredError(url.href);
    const listener = await listen();
    note(`To sign in to ${url.href}, open this URL in a browser:\n\n  ${safeText(authorizationUrl.href)}\n`);
    if (options.open !== false && isOpenable(authorizationUrl)) {
      // The URL is printed above: a browser that cannot be opened is not an error.
      open(authorizationUrl.href).catch(() => {});
    }
    // The listener takes only this flow's redirect: the one that carries its state.
    const state = authorizationUrl.searchParams.get("state");
    if (state === null || state === "") throw new Error("the authorization request carries no state");
    return listener.callback(signal, state);
  };
  // The redirect URI is the listener's (an ephemeral port unless --callback-port), known once it
  // listens: the grant reads it when registering the client and when the flow runs.
  const grant: OAuthGrant = {
    grantTypes: ["authorization_code", "refresh_token"],
    redirectUris,
    obtain: async (context) => {
      if (mode !== "never") await useListener();
      return new AuthorizationCodeGrant({ redirectUri, redirect }).obtain(context);
    },
  };
  let obtained = false;
  const provider = new OAuthClientProvider({
    grant,
    tokenStore: storeFor(
      file,
      mode,
      url.href,
      () => {
        obtained = true;
      },
      // Dynamic Client Registration comes next: it registers the listener's redirect URI.
      useListener,
    ),
    clientName: "tsmcp command line",
    ...(client === undefined ? {} : { client }),
    ...(options.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: options.clientMetadataUrl }),
    logger: { warn: (message) => note(`warning: ${message}`) },
  });
  return {
    auth: provider,
    file,
    get obtainedTokens() {
      return obtained;
    },
    close: async () => {
      const listener = await listening?.catch(() => undefined);
      await listener?.close();
    },
  };
}
