import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EnvelopeRequestStateCodec } from "../../../../../examples/envelope-codec.js";
import type { JSONRPCResponse } from "../../protocol/jsonrpc.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { requestBinding } from "./claims.js";
import type { RequestStateCodec } from "./codec.js";
import { InvalidRequestState } from "./errors.js";
import { type PrincipalBinding, RequestStateSecurity } from "./policy.js";
import { openRequestState, sealRequestState } from "./sealing.js";
import {
  CapturingLogger,
  envelopeFields,
  errorOf,
  flowServer,
  KEY_A,
  KEY_B,
  KEY_C,
  ManualClock,
  request,
  send,
  stateOf,
  textOf,
} from "./state-test-fixtures.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const FROZEN = {
  code: -32602,
  message: "Invalid or expired requestState",
  data: { reason: "invalid_request_state" },
};
const FROZEN_JSON = JSON.stringify(FROZEN);

interface Fixture {
  clock: ManualClock;
  logger: CapturingLogger;
  policy: RequestStateSecurity;
  server: ReturnType<typeof flowServer>["server"];
  seen: unknown[];
}

function fixture(
  options: {
    keys?: (Uint8Array | string)[];
    codec?: RequestStateCodec;
    name?: string;
    audience?: string;
    defaultAudience?: string | null;
    bindPrincipal?: PrincipalBinding | null;
    clock?: ManualClock;
    rounds?: number;
  } = {},
): Fixture {
  const clock = options.clock ?? new ManualClock();
  const logger = new CapturingLogger();
  const policy = new RequestStateSecurity({
    ...(options.codec === undefined ? { keys: options.keys ?? [KEY_A] } : { codec: options.codec }),
    clock,
    logger,
    ...(options.audience === undefined ? {} : { audience: options.audience }),
    ...(options.bindPrincipal === undefined ? {} : { bindPrincipal: options.bindPrincipal }),
  });
  const { server, seen } = flowServer(policy, {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.defaultAudience === undefined ? {} : { defaultAudience: options.defaultAudience }),
    ...(options.rounds === undefined ? {} : { rounds: options.rounds }),
  });
  return { clock, logger, policy, server, seen };
}

const provision = (params: Record<string, unknown> = {}, id: string | number = 1) =>
  request("tools/call", { name: "provision", arguments: { name: "orders" }, ...params }, id);

/**
 * Runs `attempt` against a cleared log and asserts the frozen wire error, exactly one line logged
 * (the warning with `reason`, and `detail` beside it when given), and that no handler ran.
 */
async function expectRefused(
  target: Fixture,
  reason: string,
  attempt: () => Promise<JSONRPCResponse>,
  method = "tools/call",
  detail?: string,
): Promise<void> {
  target.logger.clear();
  const handled = target.seen.length;
  const response = await attempt();
  expect(errorOf(response)).toStrictEqual(FROZEN);
  expect(target.logger.lines).toStrictEqual([
    {
      level: "warn",
      message: `requestState rejected on ${method}: ${reason}${detail === undefined ? "" : ` (${detail})`}`,
      fields: expect.objectContaining({ method, reason, ...(detail === undefined ? {} : { detail }) }),
    },
  ]);
  expect(target.seen.slice(handled), "a handler ran").toEqual([]);
}

async function mint(target: Fixture, params: Record<string, unknown> = {}, auth?: AuthInfo): Promise<string> {
  return stateOf(await send(target.server, provision(params), auth));
}

describe("a tampered token", () => {
  it("is refused for every single-character substitution, each with the reason of the region it hits", async () => {
    const target = fixture();
    const token = await mint(target);
    const expectedReason = (index: number): string[] => {
      const bodyIndex = index - 3;
      if (index < 3) return ["malformed"];
      if (bodyIndex < 5) return ["unknown key"]; // the first 30 bits are the key id
      if (bodyIndex === 5) return ["unknown key", "seal"]; // key id and nonce share this character
      if (index < token.length - 1) return ["seal"];
      return ["malformed", "seal"]; // a non-canonical or a different final character
    };
    const wrong: string[] = [];
    const counts = new Map<string, number>();
    for (let index = 0; index < token.length; index++) {
      const replacements = index < 3 ? ["w", "2", ",", "V"] : [...ALPHABET];
      for (const replacement of replacements) {
        if (replacement === token[index]) continue;
        const tampered = token.slice(0, index) + replacement + token.slice(index + 1);
        target.logger.clear();
        const response = await send(target.server, provision({ requestState: tampered }, 2));
        const wire = JSON.stringify("error" in response ? response.error : response);
        const lines = target.logger.messages;
        const reason = lines[0]?.replace("requestState rejected on tools/call: ", "") ?? "(not logged)";
        if (wire !== FROZEN_JSON || lines.length !== 1 || !expectedReason(index).includes(reason)) {
          wrong.push(`${index}:${replacement} -> ${wire} ${lines.join("|")}`);
        }
        counts.set(reason, (counts.get(reason) ?? 0) + 1);
      }
    }
    expect(wrong).toEqual([]);
    expect(target.seen).toEqual([undefined]);
    expect(counts.get("seal")).toBeGreaterThan(1_000);
    expect(counts.get("unknown key")).toBeGreaterThanOrEqual(5 * 63);
  }, 120_000);

  it("is refused when a character is deleted or inserted anywhere", async () => {
    const target = fixture();
    const token = await mint(target);
    for (let index = 0; index < token.length; index += 7) {
      const deleted = token.slice(0, index) + token.slice(index + 1);
      const inserted = `${token.slice(0, index)}A${token.slice(index)}`;
      for (const variant of [deleted, inserted]) {
        const response = await send(target.server, provision({ requestState: variant }, 2));
        expect(errorOf(response)).toStrictEqual(FROZEN);
      }
    }
    expect(target.seen).toEqual([undefined]);
  });

  it("is refused in any padded, whitespace-carrying or otherwise non-canonical spelling", async () => {
    // The token length depends on the audience: pick a server name whose token ends on a character
    // with unused bits, so that final-character aliases exist.
    let target = fixture();
    let token = await mint(target);
    for (let extra = 1; (token.length - 3) % 4 === 0 && extra < 4; extra++) {
      target = fixture({ name: `Provisioner${"x".repeat(extra)}` });
      token = await mint(target);
    }
    const body = Buffer.from(token.slice(3), "base64url");
    const aliases = [...ALPHABET]
      .map((last) => token.slice(0, -1) + last)
      .filter((alias) => alias !== token && Buffer.from(alias.slice(3), "base64url").equals(body));
    expect(aliases.length).toBeGreaterThan(0);
    const spellings = [
      `${token}=`,
      `${token}==`,
      ` ${token}`,
      `${token} `,
      `${token}\n`,
      `${token}\r\n`,
      `${token.slice(0, 40)}\n${token.slice(40)}`,
      `${token.slice(0, 40)} ${token.slice(40)}`,
      token.replaceAll("-", "+").replaceAll("_", "/"),
      `V1.${token.slice(3)}`,
      `v1.${Buffer.from(token.slice(3), "base64url").toString("base64")}`,
      ...aliases,
    ].filter((spelling) => spelling !== token);
    for (const spelling of spellings) {
      target.logger.clear();
      const response = await send(target.server, provision({ requestState: spelling }, 2));
      expect(errorOf(response)).toStrictEqual(FROZEN);
      expect(target.logger.messages).toEqual(["requestState rejected on tools/call: malformed"]);
    }
  });
});

describe("a replayed token", () => {
  it("is refused on another tool", async () => {
    const target = fixture();
    const token = await mint(target);
    const attempt = () =>
      send(
        target.server,
        request("tools/call", { name: "deprovision", arguments: { name: "orders" }, requestState: token }, 2),
      );
    await expectRefused(target, "request binding", attempt);
  });

  it("is refused with other arguments, while reordered keys and the original arguments complete", async () => {
    const target = fixture();
    const args = { name: "orders", size: { disk: 10, cpu: 2 }, tags: ["a", "b"] };
    const token = await mint(target, { arguments: args });
    for (const other of [
      { ...args, name: "users" },
      { ...args, tags: ["b", "a"] },
      { name: "orders" },
      {},
      { ...args, extra: null },
    ]) {
      await expectRefused(target, "request binding", () =>
        send(target.server, provision({ arguments: other, requestState: token }, 2)),
      );
    }
    const reordered = { tags: ["a", "b"], size: { cpu: 2, disk: 10 }, name: "orders" };
    const done = await send(target.server, provision({ arguments: reordered, requestState: token }, 3));
    expect(textOf(done)).toBe("done after step-1");
  });

  it("treats omitted arguments and {} as the same request", async () => {
    const target = fixture();
    const token = stateOf(await send(target.server, request("tools/call", { name: "provision" })));
    const done = await send(
      target.server,
      request("tools/call", { name: "provision", arguments: {}, requestState: token }, 2),
    );
    expect(textOf(done)).toBe("done after step-1");
  });

  it("is refused on another method with the same name and arguments", async () => {
    const target = fixture();
    const token = await mint(target);
    const attempt = () =>
      send(
        target.server,
        request("prompts/get", { name: "provision", arguments: { name: "orders" }, requestState: token }, 2),
      );
    await expectRefused(target, "request binding", attempt, "prompts/get");
  });

  it("is refused on another resource", async () => {
    const target = fixture();
    const token = stateOf(await send(target.server, request("resources/read", { uri: "notes://1" })));
    const attempt = () =>
      send(target.server, request("resources/read", { uri: "notes://2", requestState: token }, 2));
    await expectRefused(target, "request binding", attempt, "resources/read");
  });

  it("is refused by a server with another audience that shares the keys", async () => {
    const minter = fixture({ name: "Provisioner" });
    const other = fixture({ name: "Billing" });
    const minted = await mint(minter);
    await expectRefused(other, "audience", () => send(other.server, provision({ requestState: minted }, 2)));
  });

  it("is refused after its expiry and accepted just inside its TTL", async () => {
    const target = fixture();
    const token = await mint(target);
    target.clock.nowMs += 600_000 + 1_000;
    await expectRefused(target, "expired", () => send(target.server, provision({ requestState: token }, 2)));
    target.clock.nowMs -= 2_000;
    expect(textOf(await send(target.server, provision({ requestState: token }, 3)))).toBe(
      "done after step-1",
    );
  });

  it("is refused when minted more than sixty seconds in the future, and accepted within the skew", async () => {
    const minterClock = new ManualClock();
    const minter = fixture({ clock: minterClock });
    const verifier = fixture();
    minterClock.nowMs = verifier.clock.nowMs + 120_000;
    const minted = await mint(minter);
    await expectRefused(verifier, "minted in the future", () =>
      send(verifier.server, provision({ requestState: minted }, 2)),
    );
    minterClock.nowMs = verifier.clock.nowMs + 30_000;
    expect(textOf(await send(verifier.server, provision({ requestState: await mint(minter) }, 3)))).toBe(
      "done after step-1",
    );
  });

  it("is refused when minted under a different key ring", async () => {
    const minter = fixture({ keys: [KEY_B, KEY_C] });
    const verifier = fixture({ keys: [KEY_A] });
    const minted = await mint(minter);
    await expectRefused(verifier, "unknown key", () =>
      send(verifier.server, provision({ requestState: minted }, 2)),
    );
  });

  it("is refused when the state was never sealed", async () => {
    const target = fixture();
    for (const plaintext of ["step-1", "", "v1.", "v1.step-1", '{"v":1,"s":"step-1"}']) {
      await expectRefused(target, "malformed", () =>
        send(target.server, provision({ requestState: plaintext })),
      );
    }
    expect(target.seen).toEqual([]);
  });
});

describe("principal binding", () => {
  const alice: AuthInfo = {
    token: "a",
    clientId: "client-123",
    issuer: "https://as.example",
    subject: "alice",
  };
  const bob: AuthInfo = { ...alice, token: "b", subject: "bob" };

  it("refuses another principal and completes for the same one", async () => {
    const target = fixture();
    const token = await mint(target, {}, alice);
    await expectRefused(target, "principal", () =>
      send(target.server, provision({ requestState: token }, 2), bob),
    );
    const done = await send(target.server, provision({ requestState: token }, 3), {
      ...alice,
      token: "refreshed",
    });
    expect(textOf(done)).toBe("done after step-1");
  });

  it("refuses a principal-bound state when the verifier derives none, and the reverse", async () => {
    const target = fixture();
    const bound = await mint(target, {}, alice);
    await expectRefused(target, "principal drift", () =>
      send(target.server, provision({ requestState: bound }, 2)),
    );
    const unbound = await mint(target);
    await expectRefused(target, "principal drift", () =>
      send(target.server, provision({ requestState: unbound }, 3), alice),
    );
  });

  it("carries different salted claims for two mints by one principal, neither revealing it", async () => {
    const target = fixture();
    const codec = target.policy.codec;
    const claimOf = async () => envelopeFields(codec.unseal(await mint(target, {}, alice))).p as string;
    const first = await claimOf();
    const second = await claimOf();
    expect(first).not.toBe(second);
    expect(first).not.toContain("alice");
  });

  it("fails the seal with a sanitized internal error when the principal binding throws", async () => {
    const target = fixture({
      bindPrincipal: () => {
        throw new Error("directory down for alice@example.com");
      },
    });
    const response = await send(target.server, provision());
    expect(errorOf(response)).toStrictEqual({ code: -32603, message: "Internal error" });
    expect(target.logger.lines).toEqual([
      {
        level: "error",
        message: "refusing to seal requestState on tools/call: principal binding error",
        fields: { method: "tools/call", reason: "principal binding error", cause: "Error" },
      },
    ]);
  });

  it("fails the unseal with the frozen error when the principal binding throws", async () => {
    const minter = fixture({ bindPrincipal: () => "tenant-1" });
    const verifier = fixture({
      bindPrincipal: () => {
        throw new Error("boom");
      },
    });
    const minted = await mint(minter);
    await expectRefused(verifier, "principal binding error", () =>
      send(verifier.server, provision({ requestState: minted }, 2)),
    );
  });

  it("fails closed on a non-string principal, when sealing and when verifying", async () => {
    const numeric = fixture({ bindPrincipal: (() => 42) as unknown as PrincipalBinding });
    expect(errorOf(await send(numeric.server, provision()))).toStrictEqual({
      code: -32603,
      message: "Internal error",
    });
    expect(numeric.logger.messages).toEqual([
      "refusing to seal requestState on tools/call: principal binding error (bindPrincipal returned number, expected string or undefined)",
    ]);
    const minter = fixture({ bindPrincipal: () => "tenant-1" });
    const verifier = fixture({ bindPrincipal: (() => null) as unknown as PrincipalBinding });
    const minted = await mint(minter);
    await expectRefused(
      verifier,
      "principal binding error",
      () => send(verifier.server, provision({ requestState: minted }, 2)),
      "tools/call",
      "bindPrincipal returned null, expected string or undefined",
    );
  });

  it("distinguishes two subjects of one OAuth client by default", async () => {
    const target = fixture();
    const token = await mint(target, {}, { token: "t", clientId: "shared-client", subject: "alice" });
    await expectRefused(target, "principal", () =>
      send(target.server, provision({ requestState: token }, 2), {
        token: "t",
        clientId: "shared-client",
        subject: "bob",
      }),
    );
  });

  it("binds and verifies a lone-surrogate principal", async () => {
    const odd = fixture({ bindPrincipal: () => "user-\uD800" });
    const token = await mint(odd);
    expect(textOf(await send(odd.server, provision({ requestState: token }, 2)))).toBe("done after step-1");
  });

  it("binds nothing when principal binding is turned off", async () => {
    const target = fixture({ bindPrincipal: null });
    const token = await mint(target, {}, alice);
    expect(textOf(await send(target.server, provision({ requestState: token }, 2), bob))).toBe(
      "done after step-1",
    );
  });
});

describe("audience", () => {
  it("lets two servers sharing keys and a name finish each other's flows", async () => {
    const first = fixture({ name: "Fleet" });
    const second = fixture({ name: "Fleet" });
    expect(textOf(await send(second.server, provision({ requestState: await mint(first) }, 2)))).toBe(
      "done after step-1",
    );
  });

  it("refuses audience presence drift in both directions", async () => {
    const named = fixture({ name: "Provisioner" });
    const anonymous = fixture({ name: "Provisioner", defaultAudience: null });
    const audienceFree = await mint(anonymous);
    expect(envelopeFields(anonymous.policy.codec.unseal(audienceFree))).not.toHaveProperty("aud");
    await expectRefused(named, "audience", () =>
      send(named.server, provision({ requestState: audienceFree }, 2)),
    );
    const minted = await mint(named);
    await expectRefused(anonymous, "audience", () =>
      send(anonymous.server, provision({ requestState: minted }, 3)),
    );
  });

  it("lets an explicit policy audience override the server name", async () => {
    const east = fixture({ name: "worker-east", audience: "fleet" });
    const west = fixture({ name: "worker-west", audience: "fleet" });
    const token = await mint(east);
    expect(envelopeFields(east.policy.codec.unseal(token)).aud).toBe("fleet");
    expect(textOf(await send(west.server, provision({ requestState: token }, 2)))).toBe("done after step-1");
  });
});

/** A codec that only encodes: "plain." + base64url(payload); refuses every other spelling. */
const passThroughCodec: RequestStateCodec = {
  seal: (payload) => `plain.${Buffer.from(payload).toString("base64url")}`,
  unseal: (token) => {
    const body = token.startsWith("plain.") ? token.slice("plain.".length) : undefined;
    const payload = body === undefined ? undefined : Buffer.from(body, "base64url");
    if (payload === undefined || payload.toString("base64url") !== body) {
      throw new InvalidRequestState("malformed");
    }
    return payload;
  },
};

describe.each([
  { name: "a pass-through codec", codec: passThroughCodec, prefix: "plain." },
  { name: "the envelope codec example", codec: new EnvelopeRequestStateCodec(KEY_B), prefix: "kms1." },
])("with a bring-your-own codec ($name), the SDK still enforces", ({ codec, prefix }) => {
  const alice: AuthInfo = { token: "a", clientId: "client-123", subject: "alice" };

  it("the TTL, and completes just inside it", async () => {
    const target = fixture({ codec });
    const token = await mint(target);
    expect(token.startsWith(prefix)).toBe(true);
    target.clock.nowMs += 600_000 + 1_000;
    await expectRefused(target, "expired", () => send(target.server, provision({ requestState: token }, 2)));
    target.clock.nowMs -= 2_000;
    expect(textOf(await send(target.server, provision({ requestState: token }, 3)))).toBe(
      "done after step-1",
    );
  });

  it("the request binding: another tool, other arguments, another method", async () => {
    const target = fixture({ codec });
    const token = await mint(target);
    await expectRefused(target, "request binding", () =>
      send(
        target.server,
        request("tools/call", { name: "forecast", arguments: { name: "orders" }, requestState: token }, 2),
      ),
    );
    await expectRefused(target, "request binding", () =>
      send(target.server, provision({ arguments: { name: "users" }, requestState: token }, 3)),
    );
    await expectRefused(
      target,
      "request binding",
      () =>
        send(
          target.server,
          request(
            "prompts/get",
            { name: "provision", arguments: { name: "orders" }, requestState: token },
            4,
          ),
        ),
      "prompts/get",
    );
    expect(textOf(await send(target.server, provision({ requestState: token }, 5)))).toBe(
      "done after step-1",
    );
  });

  it("the audience, when a server of another name shares the codec", async () => {
    const minted = await mint(fixture({ codec, name: "Provisioner" }));
    const other = fixture({ codec, name: "Billing" });
    await expectRefused(other, "audience", () => send(other.server, provision({ requestState: minted }, 2)));
  });

  it("the principal, and principal drift in both directions", async () => {
    const target = fixture({ codec });
    const bound = await mint(target, {}, alice);
    await expectRefused(target, "principal", () =>
      send(target.server, provision({ requestState: bound }, 2), { ...alice, subject: "bob" }),
    );
    await expectRefused(target, "principal drift", () =>
      send(target.server, provision({ requestState: bound }, 3)),
    );
    const unbound = await mint(target);
    await expectRefused(target, "principal drift", () =>
      send(target.server, provision({ requestState: unbound }, 4), alice),
    );
    expect(textOf(await send(target.server, provision({ requestState: bound }, 5), alice))).toBe(
      "done after step-1",
    );
  });

  it("the codec's own refusal, answered with the same frozen error", async () => {
    const target = fixture({ codec });
    const token = await mint(target);
    await expectRefused(target, "malformed", () =>
      send(target.server, provision({ requestState: `${token}=` }, 2)),
    );
  });
});

describe("refusals, side by side", () => {
  it("never vary on the wire and never log the token, the plaintext or the principal", async () => {
    const target = fixture();
    const principal = { token: "bearer-secret", clientId: "client-secret-id", subject: "subject-secret" };
    const good = await mint(target, {}, principal);
    const tampered = `${good.slice(0, 20)}${good[20] === "A" ? "B" : "A"}${good.slice(21)}`;
    target.logger.clear();
    const responses = [
      await send(target.server, provision({ requestState: "step-1" }, 2), principal),
      await send(target.server, provision({ requestState: tampered }, 3), principal),
      await send(
        target.server,
        provision({ requestState: good, arguments: { name: "users" } }, 4),
        principal,
      ),
    ];
    for (const response of responses) expect(errorOf(response)).toStrictEqual(FROZEN);
    expect(target.logger.lines.map((line) => line.level)).toEqual(["warn", "warn", "warn"]);
    const logged = JSON.stringify(target.logger.lines);
    for (const secret of [good, tampered, "step-1", "secret", "client-secret-id", "bearer"]) {
      expect(logged).not.toContain(secret);
    }
  });
});

describe("key rotation", () => {
  it("keeps a flow in progress verifying through [OLD] -> [OLD, NEW] -> [NEW, OLD] -> [NEW]", async () => {
    const OLD = KEY_A;
    const NEW = KEY_B;
    const phases = [[OLD], [OLD, NEW], [NEW, OLD], [NEW]].map((keys) => fixture({ keys, rounds: 5 }));
    const [before, learn, promote, retire] = phases as [Fixture, Fixture, Fixture, Fixture];
    const round1 = await mint(before);
    const round2 = stateOf(await send(learn.server, provision({ requestState: round1 }, 2)));
    const round3 = stateOf(await send(promote.server, provision({ requestState: round2 }, 3)));
    const round4 = stateOf(await send(retire.server, provision({ requestState: round3 }, 4)));
    expect(textOf(await send(retire.server, provision({ requestState: round4 }, 5)))).toBe(
      "done after step-4",
    );
    expect(retire.seen).toEqual(["step-3", "step-4"]);
    // The phase-1 token was minted by OLD; once OLD is retired it no longer verifies.
    await expectRefused(retire, "unknown key", () =>
      send(retire.server, provision({ requestState: round2 }, 6)),
    );
    // Phase 2 already mints with NEW, which every phase-1 instance could verify.
    expect(stateOf(await send(learn.server, provision({ requestState: round3 }, 7)))).toMatch(/^v1\./);
  });
});

describe("opening arbitrary input through the policy", () => {
  const policy = new RequestStateSecurity({ keys: [KEY_A], clock: new ManualClock() });
  const scope = {
    binding: requestBinding("tools/call", { name: "provision", arguments: { name: "orders" } }),
    audience: "Provisioner",
    principal: () => undefined,
  };

  it("never yields anything but InvalidRequestState for arbitrary strings", () => {
    const tokenish = fc
      .string({ unit: fc.constantFrom(...ALPHABET), maxLength: 300 })
      .map((body) => `v1.${body}`);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.string(), tokenish), (text) => {
        expect(() => openRequestState(policy, text, scope)).toThrow(InvalidRequestState);
      }),
      { numRuns: 2_000 },
    );
  });

  it("opens exactly the state it sealed, for any state and arguments", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (state, args) => {
          const bound = { ...scope, binding: requestBinding("tools/call", { name: "t", arguments: args }) };
          expect(openRequestState(policy, sealRequestState(policy, state, bound), bound)).toBe(state);
        },
      ),
      { numRuns: 500 },
    );
  });
});
