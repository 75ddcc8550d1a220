import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JSONRPCRequest, JSONRPCResponse } from "../packages/tsmcp/src/protocol/jsonrpc.js";
import { InvalidRequestState } from "../packages/tsmcp/src/server/index.js";
import { stderrOf } from "../test/helpers/logs.js";
import { EnvelopeRequestStateCodec, LocalKms, provisioner } from "./envelope-codec.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

async function codecFromKms() {
  const kms = new LocalKms();
  const { wrapped } = kms.generateDataKey();
  return EnvelopeRequestStateCodec.fromWrappedKey(kms, wrapped);
}

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof InvalidRequestState) return error.reason;
    throw error;
  }
  throw new Error("expected InvalidRequestState, but nothing was thrown");
}

function call(params: Record<string, unknown>, id: number): JSONRPCRequest {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      },
      name: "provision",
      arguments: { name: "orders" },
      ...params,
    },
  };
}

function bodyOf(response: JSONRPCResponse | undefined): Record<string, unknown> {
  if (response === undefined) throw new Error("no response");
  return "result" in response ? response.result : { error: response.error };
}

describe("the envelope codec example", () => {
  it("round-trips what it sealed, with a kms1. prefix and a fresh nonce each time", async () => {
    const codec = await codecFromKms();
    const payload = Buffer.from('{"v":1,"s":"awaiting-region"}');
    const first = codec.seal(payload);
    expect(first).toMatch(/^kms1\.[A-Za-z0-9_-]+$/);
    expect(first).not.toBe(codec.seal(payload));
    expect(Buffer.from(codec.unseal(first)).equals(payload)).toBe(true);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        expect(Buffer.from(codec.unseal(codec.seal(bytes))).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("refuses every single-character change of a token with InvalidRequestState", async () => {
    const codec = await codecFromKms();
    const token = codec.seal(Buffer.from("state"));
    for (let index = 0; index < token.length; index++) {
      for (const replacement of index < 5 ? ["K", "x", "2"] : ALPHABET) {
        if (replacement === token[index]) continue;
        const altered = token.slice(0, index) + replacement + token.slice(index + 1);
        expect(["malformed", "seal"]).toContain(reasonOf(() => codec.unseal(altered)));
      }
    }
  });

  it("refuses every other spelling of a minted token", async () => {
    const codec = await codecFromKms();
    const token = codec.seal(Buffer.from("state"));
    const body = Buffer.from(token.slice(5), "base64url");
    const aliases = [...ALPHABET]
      .map((last) => token.slice(0, -1) + last)
      .filter((alias) => alias !== token && Buffer.from(alias.slice(5), "base64url").equals(body));
    for (const spelling of [
      `${token}=`,
      ` ${token}`,
      `${token}\n`,
      `kms1.${body.toString("base64")}`,
      ...aliases,
    ]) {
      if (spelling !== token) expect(reasonOf(() => codec.unseal(spelling))).toBe("malformed");
    }
    expect(reasonOf(() => codec.unseal(`kms2.${token.slice(5)}`))).toBe("malformed");
  });

  it("refuses tokens from another data key, and arbitrary strings, only with InvalidRequestState", async () => {
    const codec = await codecFromKms();
    const other = await codecFromKms();
    expect(reasonOf(() => codec.unseal(other.seal(Buffer.from("state"))))).toBe("seal");
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.string().map((s) => `kms1.${s}`),
        ),
        (text) => {
          expect(() => codec.unseal(text)).toThrow(InvalidRequestState);
        },
      ),
    );
  });

  it("refuses a wrapped key that this KMS did not wrap, at start-up", async () => {
    const { wrapped } = new LocalKms().generateDataKey();
    await expect(EnvelopeRequestStateCodec.fromWrappedKey(new LocalKms(), wrapped)).rejects.toThrow();
    expect(() => new EnvelopeRequestStateCodec(new Uint8Array(16))).toThrow(RangeError);
  });

  it("seals a low-level server's state behind the boundary and completes the flow, logging a forged state", async () => {
    const server = provisioner(await codecFromKms());
    const env = { signal: new AbortController().signal };
    const first = bodyOf(await server.handle(call({}, 1), env));
    expect(first.resultType).toBe("input_required");
    const requestState = first.requestState as string;
    expect(requestState.startsWith("kms1.")).toBe(true);
    expect(requestState).not.toContain("awaiting-region");
    const inputResponses = { region: { action: "accept", content: { region: "eu-west-1" } } };
    const done = bodyOf(await server.handle(call({ inputResponses, requestState }, 2), env));
    expect(done.content).toEqual([{ type: "text", text: "Provisioned in eu-west-1" }]);
    const { result: answer, lines } = await stderrOf(() =>
      server.handle(call({ inputResponses, requestState: "awaiting-region" }, 3), env),
    );
    expect(lines).toEqual([
      '[tsmcp] warn requestState rejected on tools/call: malformed {"method":"tools/call","reason":"malformed"}',
    ]);
    const forged = bodyOf(answer);
    expect(forged).toEqual({
      error: {
        code: -32602,
        message: "Invalid or expired requestState",
        data: { reason: "invalid_request_state" },
      },
    });
  });
});
