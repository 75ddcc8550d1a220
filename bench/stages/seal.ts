/**
 * Scope item 4: sealing and opening a 1 KiB and a 16 KiB requestState. tsmcp: the claims envelope
 * plus AES-256-GCM through the policy (`sealRequestState` / `openRequestState`, the boundary's
 * per-round work; encrypted, bound to the request and audience, expiring). Official:
 * `createRequestStateCodec` `mint` / `verify` (HMAC-SHA256 over base64url JSON with an expiry;
 * signed, not encrypted; asynchronous WebCrypto), with no `bind`, its default. Floor: bare
 * AES-256-GCM of the same plaintext with `node:crypto` and a base64url token (random 12-byte nonce,
 * one cipher context per call, no envelope, no claims): what any sealed state must pay at least.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { ServerContext } from "@modelcontextprotocol/server";
import { openRequestState, sealRequestState } from "../../packages/tsmcp/src/server/state/sealing.js";
import { benchPolicy, plaintextState, STATE_SIZES, UNBOUND_SCOPE } from "../lib/request-state-cases.js";
import { type SampleBounds, type Summary, sample, sampleSync } from "../lib/stats.js";
import { createOfficialCodec } from "../servers/official.js";

/** Microseconds per operation, by size label, then operation. */
export type SealResults = Map<string, { seal: Map<SealColumn, Summary>; open: Map<SealColumn, Summary> }>;

/** Who a seal/open row measures. */
export type SealColumn = "tsmcp" | "official" | "floor";

/** The floor's seal: AES-256-GCM, nonce || ciphertext || tag, base64url. */
function floorSeal(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64url");
}

/** The floor's open. */
function floorOpen(key: Buffer, token: string): string {
  const bytes = Buffer.from(token, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString(
    "utf8",
  );
}

/**
 * The context the official `verify` is typed to take. A codec created without `bind` never reads
 * it (the decoded claims are checked against the key and the clock only), so none is built.
 */
const UNUSED_CONTEXT = undefined as unknown as ServerContext;

/** Runs scope item 4. */
export async function measureSeal(bounds: SampleBounds, log: (line: string) => void): Promise<SealResults> {
  const policy = benchPolicy();
  const codec = createOfficialCodec();
  const results: SealResults = new Map();
  for (const [label, bytes] of STATE_SIZES) {
    const state = plaintextState(bytes);
    const token = sealRequestState(policy, state, UNBOUND_SCOPE);
    if (openRequestState(policy, token, UNBOUND_SCOPE) !== state) throw new Error("tsmcp round trip failed");
    const officialToken = await codec.mint({ name: state });
    if ((await codec.verify(officialToken, UNUSED_CONTEXT)).name !== state)
      throw new Error("official round trip failed");

    const floorKey = randomBytes(32);
    const floorToken = floorSeal(floorKey, state);
    if (floorOpen(floorKey, floorToken) !== state) throw new Error("floor round trip failed");

    const seal = new Map<SealColumn, Summary>();
    const open = new Map<SealColumn, Summary>();
    seal.set(
      "tsmcp",
      sampleSync(() => sealRequestState(policy, state, UNBOUND_SCOPE), bounds),
    );
    open.set(
      "tsmcp",
      sampleSync(() => openRequestState(policy, token, UNBOUND_SCOPE), bounds),
    );
    seal.set("official", await sample(() => codec.mint({ name: state }), bounds));
    open.set("official", await sample(() => codec.verify(officialToken, UNUSED_CONTEXT), bounds));
    seal.set(
      "floor",
      sampleSync(() => floorSeal(floorKey, state), bounds),
    );
    open.set(
      "floor",
      sampleSync(() => floorOpen(floorKey, floorToken), bounds),
    );
    results.set(label, { seal, open });
    log(
      `  ${label}: tsmcp seal ${seal.get("tsmcp")?.median.toFixed(1)} us / open ${open.get("tsmcp")?.median.toFixed(1)} us; ` +
        `official mint ${seal.get("official")?.median.toFixed(1)} us / verify ${open.get("official")?.median.toFixed(1)} us`,
    );
  }
  return results;
}
