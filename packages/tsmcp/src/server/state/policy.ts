/**
 * `RequestStateSecurity`: the sealing policy a requestState boundary enforces — which codec (or key
 * ring), how long a round may take, whose flow it is, for which audience — validated when built.
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow).
 */
import { randomBytes } from "node:crypto";
import { type Clock, systemClock } from "../../protocol/clock.js";
import type { RequestContext } from "../context.js";
import type { Logger } from "../logger.js";
import { AesGcmRequestStateCodec, type RequestStateKey } from "./aes-gcm-codec.js";
import { isRequestStateCodec, type RequestStateCodec } from "./codec.js";
import { authenticatedPrincipal } from "./principal.js";

/** The default lifetime of one round's sealed state: 600 000 ms (10 minutes). */
export const DEFAULT_REQUEST_STATE_TTL_MS = 600_000;

/**
 * Derives the principal a state is bound to from the request, or `undefined` for none. Must be
 * synchronous and consistent across rounds and across every instance sharing the keys.
 */
export type PrincipalBinding = (ctx: RequestContext) => string | undefined;

/** Options shared by {@link RequestStateSecurity} and {@link RequestStateSecurity.ephemeral}. */
export interface RequestStateSecurityCommonOptions {
  /**
   * How long each round's sealed state stays valid, in milliseconds; re-stamped on every round, so
   * it bounds one round's think time, not the whole flow. Positive and finite. Default
   * {@link DEFAULT_REQUEST_STATE_TTL_MS}.
   */
  ttlMs?: number;
  /**
   * Who the state is bound to. Default {@link authenticatedPrincipal} (the OAuth client, issuer and
   * subject when an auth layer verified a token; none otherwise). `null` turns principal binding off.
   */
  bindPrincipal?: PrincipalBinding | null;
  /**
   * The audience stamped into (and required of) every state. Default: the boundary's
   * `defaultAudience` (the server's name). Set it for a fleet whose instances have different names.
   */
  audience?: string;
  /** The time source for `iat`/`exp`. Default {@link systemClock}. */
  clock?: Clock;
  /** Where refusals are logged (reason only, never secrets). Default: the server's logger. */
  logger?: Logger;
}

/** Options of {@link RequestStateSecurity}: exactly one of `keys` or `codec`. */
export type RequestStateSecurityOptions = RequestStateSecurityCommonOptions &
  (
    | {
        /** Ring secrets for the built-in AES-256-GCM codec, newest (minting) first. */
        keys: readonly RequestStateKey[];
        codec?: never;
      }
    | {
        keys?: never;
        /** A bring-your-own codec, used as is. */
        codec: RequestStateCodec;
      }
  );

function checkTtlMs(ttlMs: unknown): number {
  if (ttlMs === undefined) return DEFAULT_REQUEST_STATE_TTL_MS;
  if (typeof ttlMs !== "number") {
    throw new TypeError(`request-state ttlMs must be a number, got ${typeof ttlMs}`);
  }
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) {
    throw new RangeError(
      `request-state ttlMs must be a positive finite number of milliseconds, got ${ttlMs}`,
    );
  }
  return ttlMs;
}

function isLogger(value: unknown): value is Logger {
  if (typeof value !== "object" || value === null) return false;
  const logger = value as Logger;
  return typeof logger.warn === "function" && typeof logger.error === "function";
}

/**
 * The requestState sealing policy.
 *
 * ```ts
 * const policy = new RequestStateSecurity({ keys: [process.env.STATE_KEY!] });
 * server.use(requestStateBoundary(policy, { defaultAudience: server.name }));
 * ```
 *
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow).
 *
 * @throws TypeError when neither or both of `keys`/`codec` are given, a key or the codec has the
 *   wrong type, `bindPrincipal` is not a function or `null`, `audience` is not a string, or
 *   `clock`/`logger` lack their methods; RangeError for a non-positive or non-finite `ttlMs`, an
 *   empty ring, a key shorter than 32 bytes, or a duplicate key.
 */
export class RequestStateSecurity {
  /** The codec that seals and opens payloads (the built-in one when built from `keys`). */
  readonly codec: RequestStateCodec;
  /** Lifetime of one round's state, in milliseconds. */
  readonly ttlMs: number;
  /** The principal binding, or `null` when states are not principal-bound. */
  readonly bindPrincipal: PrincipalBinding | null;
  /** The explicit audience, or `undefined` to take the boundary's `defaultAudience`. */
  readonly audience: string | undefined;
  /** The time source. */
  readonly clock: Clock;
  /** Where refusals are logged; `undefined` = the logger of the server the boundary is installed on. */
  readonly logger: Logger | undefined;

  constructor(options: RequestStateSecurityOptions) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError("RequestStateSecurity takes an options object with exactly one of keys or codec");
    }
    const { keys, codec } = options as { keys?: unknown; codec?: unknown };
    if ((keys === undefined) === (codec === undefined)) {
      throw new TypeError("RequestStateSecurity takes exactly one of keys or codec");
    }
    if (codec !== undefined && !isRequestStateCodec(codec)) {
      throw new TypeError("RequestStateSecurity: codec must have seal(payload) and unseal(token) methods");
    }
    this.ttlMs = checkTtlMs(options.ttlMs);
    const bind: unknown =
      options.bindPrincipal === undefined ? authenticatedPrincipal : options.bindPrincipal;
    if (bind !== null && typeof bind !== "function") {
      throw new TypeError("RequestStateSecurity: bindPrincipal must be a function or null");
    }
    this.bindPrincipal = bind as PrincipalBinding | null;
    if (options.audience !== undefined && typeof options.audience !== "string") {
      throw new TypeError("RequestStateSecurity: audience must be a string");
    }
    this.audience = options.audience;
    const clock: unknown = options.clock ?? systemClock;
    if (typeof (clock as Clock | null)?.now !== "function") {
      throw new TypeError("RequestStateSecurity: clock must have a now() method");
    }
    this.clock = clock as Clock;
    const logger: unknown = options.logger;
    if (logger !== undefined && !isLogger(logger)) {
      throw new TypeError("RequestStateSecurity: logger must have warn() and error() methods");
    }
    this.logger = logger;
    this.codec =
      codec !== undefined
        ? (codec as RequestStateCodec)
        : new AesGcmRequestStateCodec(keys as RequestStateKey[]);
  }

  /**
   * A policy over one random 32-byte key that never leaves this process: tokens open only in the
   * process (and policy) that minted them, so a retry reaching another instance or a restarted one
   * is refused (log reason `unknown key`). Fleets need shared `keys` instead.
   *
   * @throws as the constructor does for the options given.
   */
  static ephemeral(options: RequestStateSecurityCommonOptions = {}): RequestStateSecurity {
    const policy = new RequestStateSecurity({ ...options, keys: [randomBytes(32)] });
    ephemeralPolicies.add(policy);
    return policy;
  }
}

/** The policies built by {@link RequestStateSecurity.ephemeral}. */
const ephemeralPolicies = new WeakSet<RequestStateSecurity>();

/**
 * True for a policy built by {@link RequestStateSecurity.ephemeral}: its one key never leaves this
 * process, so a restart or another instance refuses the tokens it sealed.
 */
export function isEphemeralPolicy(policy: RequestStateSecurity): boolean {
  return ephemeralPolicies.has(policy);
}
