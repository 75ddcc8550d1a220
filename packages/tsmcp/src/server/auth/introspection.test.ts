/**
 * `introspectionVerifier` against a real introspection endpoint on 127.0.0.1: concurrent first
 * verifications of one token share one introspection request; a refusal is reused for a short,
 * bounded time.
 */
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_INTROSPECTION_INACTIVE_CACHE_TTL_MS, introspectionVerifier } from "./introspection.js";
import { InvalidTokenError } from "./verifier.js";

const AUDIENCE = "https://mcp.example.com/mcp";

let endpoint: NodeServer;
let url: string;
const asked: string[] = [];

beforeAll(async () => {
  endpoint = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const token = new URLSearchParams(body).get("token") as string;
      asked.push(token);
      const active = token.startsWith("good");
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify(
          active
            ? { active, aud: AUDIENCE, sub: token, client_id: "app", scope: "notes:read" }
            : { active: false },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/introspect`;
});

afterAll(async () => {
  await new Promise((resolve) => endpoint?.close(resolve));
});

describe("introspectionVerifier", () => {
  it("asks once for concurrent first requests with one token, and once per distinct token", async () => {
    const verifier = introspectionVerifier({
      endpoint: url,
      clientId: "rs",
      clientSecret: "s",
      audience: AUDIENCE,
    });
    asked.length = 0;
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => verifier.verify("good-alice")),
      verifier.verify("good-bob"),
    ]);
    expect(answers.map((auth) => auth.subject)).toEqual([...Array(8).fill("good-alice"), "good-bob"]);
    expect(asked.sort()).toEqual(["good-alice", "good-bob"]);
    await verifier.verify("good-alice");
    expect(asked).toHaveLength(2);
  });

  it("shares a refusal between concurrent requests too, and reuses it for inactiveCacheTtlMs", async () => {
    let nowMs = Date.now();
    const clock = vi.spyOn(Date, "now").mockImplementation(() => nowMs);
    try {
      const verifier = introspectionVerifier({
        endpoint: url,
        clientId: "rs",
        clientSecret: "s",
        audience: AUDIENCE,
      });
      asked.length = 0;
      const refusals = await Promise.allSettled(Array.from({ length: 4 }, () => verifier.verify("revoked")));
      for (const refusal of refusals) {
        expect(refusal.status).toBe("rejected");
        expect((refusal as PromiseRejectedResult).reason).toBeInstanceOf(InvalidTokenError);
      }
      expect(asked).toEqual(["revoked"]);
      nowMs += DEFAULT_INTROSPECTION_INACTIVE_CACHE_TTL_MS - 1;
      await expect(verifier.verify("revoked")).rejects.toBeInstanceOf(InvalidTokenError);
      expect(asked).toEqual(["revoked"]);
      nowMs += 1;
      await expect(verifier.verify("revoked")).rejects.toBeInstanceOf(InvalidTokenError);
      expect(asked).toEqual(["revoked", "revoked"]);

      const uncached = introspectionVerifier({
        endpoint: url,
        clientId: "rs",
        clientSecret: "s",
        audience: AUDIENCE,
        inactiveCacheTtlMs: 0,
      });
      await expect(uncached.verify("revoked")).rejects.toBeInstanceOf(InvalidTokenError);
      await expect(uncached.verify("revoked")).rejects.toBeInstanceOf(InvalidTokenError);
      expect(asked).toHaveLength(4);
    } finally {
      clock.mockRestore();
    }
  });
});
