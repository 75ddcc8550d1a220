/**
 * Bring-your-own requestState crypto: envelope encryption with a data key that a KMS wraps. The
 * server unwraps the data key once at start-up (one KMS call per process, none per token) and
 * seals every round with AES-256-GCM under it. Tokens read `"kms1." + base64url(nonce || ct || tag)`
 * with the `"kms1."` prefix bound as associated data; only that exact canonical spelling opens.
 * Expiry, request binding, audience and principal stay the SDK's job, as for every codec.
 *
 * Run: npm run example -- envelope-codec
 */
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from "node:crypto";
import type { ElicitResult } from "../packages/tsmcp/src/protocol/schema/input.js";
import {
  elicitationRequest,
  InvalidRequestState,
  inputRequired,
  type RequestStateCodec,
  RequestStateSecurity,
  requestStateBoundary,
  Server,
} from "../packages/tsmcp/src/server/index.js";

const AES_KW_IV = Buffer.from("A6A6A6A6A6A6A6A6", "hex");
const DATA_KEY_BYTES = 32;

/**
 * A stand-in for a cloud KMS: its key-encryption key never leaves it; it hands out data keys in
 * plaintext and wrapped (AES-256 key wrap, RFC 3394) and unwraps them again.
 */
export class LocalKms {
  readonly #kek: KeyObject;

  constructor(kek: Uint8Array = randomBytes(32)) {
    this.#kek = createSecretKey(Buffer.from(kek));
  }

  /** Like KMS `GenerateDataKey`: a fresh 32-byte data key and its wrapped form (store the latter). */
  generateDataKey(): { plaintext: Buffer; wrapped: Buffer } {
    const plaintext = randomBytes(DATA_KEY_BYTES);
    const cipher = createCipheriv("id-aes256-wrap", this.#kek, AES_KW_IV);
    return { plaintext, wrapped: Buffer.concat([cipher.update(plaintext), cipher.final()]) };
  }

  /** Like KMS `Decrypt`: the data key inside `wrapped`. @throws when it was not wrapped by this KMS. */
  async unwrap(wrapped: Uint8Array): Promise<Buffer> {
    const decipher = createDecipheriv("id-aes256-wrap", this.#kek, AES_KW_IV);
    return Buffer.concat([decipher.update(wrapped), decipher.final()]);
  }
}

/** The prefix of every token this codec mints; bump it if the format ever changes. */
export const ENVELOPE_TOKEN_PREFIX = "kms1.";

const PREFIX_AAD = Buffer.from(ENVELOPE_TOKEN_PREFIX, "ascii");
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM under one unwrapped data key. */
export class EnvelopeRequestStateCodec implements RequestStateCodec {
  readonly #dataKey: KeyObject;

  /** Unwraps `wrappedDataKey` with the KMS once and builds the codec over it. */
  static async fromWrappedKey(
    kms: { unwrap(wrapped: Uint8Array): Promise<Uint8Array> },
    wrappedDataKey: Uint8Array,
  ): Promise<EnvelopeRequestStateCodec> {
    const dataKey = await kms.unwrap(wrappedDataKey);
    try {
      return new EnvelopeRequestStateCodec(dataKey);
    } finally {
      dataKey.fill(0);
    }
  }

  /** @throws RangeError unless `dataKey` is 32 bytes. */
  constructor(dataKey: Uint8Array) {
    if (dataKey.length !== DATA_KEY_BYTES)
      throw new RangeError(`the data key must be 32 bytes, got ${dataKey.length}`);
    this.#dataKey = createSecretKey(Buffer.from(dataKey));
  }

  seal(payload: Uint8Array): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#dataKey, nonce);
    cipher.setAAD(PREFIX_AAD);
    const body = Buffer.concat([nonce, cipher.update(payload), cipher.final(), cipher.getAuthTag()]);
    return ENVELOPE_TOKEN_PREFIX + body.toString("base64url");
  }

  unseal(token: string): Uint8Array {
    if (typeof token !== "string" || !token.startsWith(ENVELOPE_TOKEN_PREFIX)) {
      throw new InvalidRequestState("malformed");
    }
    const text = token.slice(ENVELOPE_TOKEN_PREFIX.length);
    const body = Buffer.from(text, "base64url");
    // Node's decoder is lenient; only the canonical spelling of the bytes counts.
    if (body.toString("base64url") !== text || body.length < NONCE_BYTES + TAG_BYTES) {
      throw new InvalidRequestState("malformed");
    }
    const decipher = createDecipheriv("aes-256-gcm", this.#dataKey, body.subarray(0, NONCE_BYTES));
    decipher.setAAD(PREFIX_AAD);
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(body.subarray(NONCE_BYTES, body.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw new InvalidRequestState("seal");
    }
  }
}

const ASK_REGION = elicitationRequest({
  message: "Which region should the database live in?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
});

/** A low-level server whose `provision` tool asks for a region, sealing its state with `codec`. */
export function provisioner(codec: RequestStateCodec): Server {
  const server = new Server("Provisioner", {
    onCallTool: (_ctx, params) => {
      const answer = params.inputResponses?.region as ElicitResult | undefined;
      const region = answer?.action === "accept" ? answer.content?.region : undefined;
      if (params.requestState === "awaiting-region" && typeof region === "string") {
        return { content: [{ type: "text", text: `Provisioned in ${region}` }] };
      }
      return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "awaiting-region" });
    },
  });
  server.use(requestStateBoundary(new RequestStateSecurity({ codec }), { defaultAudience: server.name }));
  return server;
}

/** Runs two rounds of the `provision` tool in-process and prints the sealed state and the result. */
export async function main(): Promise<void> {
  const kms = new LocalKms();
  const { wrapped } = kms.generateDataKey(); // in production: stored in config, plaintext discarded
  const codec = await EnvelopeRequestStateCodec.fromWrappedKey(kms, wrapped);
  const server = provisioner(codec);
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  const env = { signal: new AbortController().signal };
  const call = { name: "provision", arguments: { name: "orders" } };
  const first = await server.handle(
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta, ...call } },
    env,
  );
  const requestState = first && "result" in first ? first.result.requestState : undefined;
  console.log("round 1 requestState:", requestState);
  const inputResponses = { region: { action: "accept", content: { region: "eu-west-1" } } };
  const second = await server.handle(
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { _meta: meta, ...call, inputResponses, requestState },
    },
    env,
  );
  console.log("round 2:", JSON.stringify(second && "result" in second ? second.result.content : second));
}
