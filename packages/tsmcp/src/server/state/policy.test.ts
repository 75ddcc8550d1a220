import { describe, expect, it } from "vitest";
import { systemClock } from "../../protocol/clock.js";
import { AesGcmRequestStateCodec } from "./aes-gcm-codec.js";
import type { RequestStateCodec } from "./codec.js";
import { InvalidRequestState } from "./errors.js";
import { DEFAULT_REQUEST_STATE_TTL_MS, RequestStateSecurity } from "./policy.js";
import { authenticatedPrincipal } from "./principal.js";
import { KEY_A } from "./state-test-fixtures.js";

const identityCodec: RequestStateCodec = {
  seal: (payload) => Buffer.from(payload).toString("base64url"),
  unseal: (token) => Buffer.from(token, "base64url"),
};

describe("RequestStateSecurity construction", () => {
  it("pins the default TTL at ten minutes", () => {
    expect(DEFAULT_REQUEST_STATE_TTL_MS).toBe(600_000);
    expect(new RequestStateSecurity({ keys: [KEY_A] }).ttlMs).toBe(600_000);
  });

  it("refuses keys and codec together", () => {
    const both = { keys: [KEY_A], codec: identityCodec } as unknown as ConstructorParameters<
      typeof RequestStateSecurity
    >[0];
    expect(() => new RequestStateSecurity(both)).toThrow(
      "RequestStateSecurity takes exactly one of keys or codec",
    );
  });

  it("refuses a policy with neither keys nor codec", () => {
    const neither = {} as ConstructorParameters<typeof RequestStateSecurity>[0];
    expect(() => new RequestStateSecurity(neither)).toThrow(TypeError);
    expect(() => new RequestStateSecurity(undefined as unknown as typeof neither)).toThrow(TypeError);
  });

  it("refuses a non-positive or non-finite ttlMs, also for ephemeral policies", () => {
    for (const ttlMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => new RequestStateSecurity({ keys: [KEY_A], ttlMs })).toThrow(RangeError);
      expect(() => RequestStateSecurity.ephemeral({ ttlMs })).toThrow(RangeError);
    }
    expect(() => new RequestStateSecurity({ keys: [KEY_A], ttlMs: "600" as unknown as number })).toThrow(
      TypeError,
    );
    expect(new RequestStateSecurity({ keys: [KEY_A], ttlMs: 1.5 }).ttlMs).toBe(1.5);
  });

  it("passes key-ring errors through at construction", () => {
    expect(() => new RequestStateSecurity({ keys: ["short"] })).toThrow(/keys\[0\] is 5 bytes/);
    expect(() => new RequestStateSecurity({ keys: [] })).toThrow(RangeError);
  });

  it("refuses a codec without seal and unseal, a bad bindPrincipal, audience, clock or logger", () => {
    const bad: Record<string, unknown>[] = [
      { codec: { seal: () => "" } },
      { keys: [KEY_A], bindPrincipal: "alice" },
      { keys: [KEY_A], audience: 42 },
      { keys: [KEY_A], clock: {} },
      { keys: [KEY_A], logger: { warn: () => {} } },
    ];
    for (const options of bad) {
      expect(
        () =>
          new RequestStateSecurity(
            options as unknown as ConstructorParameters<typeof RequestStateSecurity>[0],
          ),
      ).toThrow(TypeError);
    }
  });

  it("builds a working built-in codec from keys", () => {
    const policy = new RequestStateSecurity({ keys: [KEY_A] });
    expect(policy.codec).toBeInstanceOf(AesGcmRequestStateCodec);
    const token = policy.codec.seal(Buffer.from("payload"));
    expect(Buffer.from(new AesGcmRequestStateCodec([KEY_A]).unseal(token)).toString()).toBe("payload");
  });

  it("stores a custom codec as is", () => {
    expect(new RequestStateSecurity({ codec: identityCodec }).codec).toBe(identityCodec);
  });

  it("makes ephemeral policies that are protected and cannot read each other's tokens", () => {
    const first = RequestStateSecurity.ephemeral();
    const second = RequestStateSecurity.ephemeral();
    expect(first.codec).toBeInstanceOf(AesGcmRequestStateCodec);
    const token = first.codec.seal(Buffer.from("mine"));
    expect(Buffer.from(first.codec.unseal(token)).toString()).toBe("mine");
    expect(() => second.codec.unseal(token)).toThrow(InvalidRequestState);
    expect(RequestStateSecurity.ephemeral({ ttlMs: 5_000, audience: "fleet" })).toMatchObject({
      ttlMs: 5_000,
      audience: "fleet",
    });
  });

  it("stores an explicit audience and defaults to none", () => {
    expect(new RequestStateSecurity({ keys: [KEY_A] }).audience).toBeUndefined();
    expect(new RequestStateSecurity({ keys: [KEY_A], audience: "fleet" }).audience).toBe("fleet");
  });

  it("binds the authenticated principal by default, stores an explicit binding, and turns binding off with null", () => {
    expect(new RequestStateSecurity({ keys: [KEY_A] }).bindPrincipal).toBe(authenticatedPrincipal);
    const bind = () => "tenant-7";
    expect(new RequestStateSecurity({ keys: [KEY_A], bindPrincipal: bind }).bindPrincipal).toBe(bind);
    expect(new RequestStateSecurity({ keys: [KEY_A], bindPrincipal: null }).bindPrincipal).toBeNull();
  });

  it("uses the system clock, and the logger of the server it guards, unless given others", () => {
    const policy = new RequestStateSecurity({ keys: [KEY_A] });
    expect(policy.clock).toBe(systemClock);
    expect(policy.logger).toBeUndefined();
  });

  it("does not keep or alter the options object it was given", () => {
    const keys = [KEY_A];
    const options = Object.freeze({ keys: Object.freeze(keys), ttlMs: 1_000 });
    const policy = new RequestStateSecurity(options);
    expect(policy.ttlMs).toBe(1_000);
    expect(options).toEqual({ keys: [KEY_A], ttlMs: 1_000 });
  });
});
