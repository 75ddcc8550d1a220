/**
 * Per-entry `requiredScopes` over real HTTP, on every path that reaches a scoped prompt or
 * resource: argument completion (both eras, with and without `hideUnauthorized`), a 2025-era
 * `resources/subscribe`, the `resourceSubscriptions` of `subscriptions/listen`, and a template's
 * `list` callback behind `resources/list`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { silentLogger } from "../../packages/tsmcp/src/protocol/index.js";
import { bearerAuth, InvalidTokenError, MCPServer } from "../../packages/tsmcp/src/server/index.js";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/transport/http/node/node.js";
import type { AuthInfo } from "../../packages/tsmcp/src/transport/index.js";
import { initialize, legacy, modern, onSession, post } from "../helpers/mcp-post.js";

const TOPIC = z.object({ topic: z.string() });
const READ = "notes:read";
const ADMIN = "notes:admin";
const TOKENS: Record<string, AuthInfo> = {
  reader: { token: "reader", clientId: "app", subject: "rita", scopes: [READ] },
  admin: { token: "admin", clientId: "app", subject: "ada", scopes: [READ, ADMIN] },
};

/** A server with a public prompt and template and an admin-only prompt, template and resource. */
function auditServer(hideUnauthorized: boolean) {
  const listed: string[] = [];
  const mcp = new MCPServer("audit", { logger: silentLogger, hideUnauthorized });
  mcp.prompt(
    "audit",
    { argsSchema: TOPIC, requiredScopes: [ADMIN], complete: { topic: () => ["payroll", "secrets"] } },
    () => "audit",
  );
  mcp.prompt("hello", { argsSchema: TOPIC, complete: { topic: () => ["world"] } }, () => "hello");
  mcp.resource(
    "secret://{id}",
    {
      requiredScopes: [ADMIN],
      list: () => {
        listed.push("secret");
        return [{ uri: "secret://payroll" }];
      },
      complete: { id: () => ["payroll"] },
    },
    ({ id }) => `secret ${id}`,
  );
  mcp.resource("notes://{id}", { list: () => [{ uri: "notes://1" }] }, ({ id }) => `note ${id}`);
  return { mcp, listed };
}

async function start(hideUnauthorized: boolean) {
  const { mcp, listed } = auditServer(hideUnauthorized);
  const verifier = {
    async verify(token: string) {
      const auth = TOKENS[token];
      if (auth === undefined) throw new InvalidTokenError("unknown token");
      return auth;
    },
  };
  const handle = await serve(mcp, {
    port: 0,
    authenticate: bearerAuth({ verifier, requiredScopes: [READ] }),
  });
  return { handle, listed };
}

let open: { handle: HttpServerHandle; listed: string[] };
let hidden: { handle: HttpServerHandle; listed: string[] };

beforeAll(async () => {
  open = await start(false);
  hidden = await start(true);
});

afterAll(async () => {
  await Promise.all([open?.handle.close(), hidden?.handle.close()]);
});

function completePrompt(name: string) {
  return { ref: { type: "ref/prompt", name }, argument: { name: "topic", value: "" } };
}
function completeTemplate(uri: string) {
  return { ref: { type: "ref/resource", uri }, argument: { name: "id", value: "" } };
}

/** Opens a 2025-era session for `token`; resolves with its request headers. */
async function session(url: URL, token: string): Promise<Record<string, string>> {
  const opened = await post(url, initialize(), token);
  expect(opened.status).toBe(200);
  return onSession(opened.sessionId as string);
}

describe("completion/complete on a scoped prompt or template", () => {
  it("refuses a caller without the scopes 403 with a step-up challenge, and answers one with them", async () => {
    const url = open.handle.url;
    for (const params of [completePrompt("audit"), completeTemplate("secret://{id}")]) {
      const refused = await post(url, modern("completion/complete", params), "reader");
      expect(refused.status).toBe(403);
      expect(refused.challenge).toBe(`Bearer error="insufficient_scope", scope="${READ} ${ADMIN}"`);
      expect(refused.body.error).toMatchObject({ code: -32600, data: { requiredScopes: [ADMIN] } });
      const answered = await post(url, modern("completion/complete", params), "admin");
      expect(answered.status).toBe(200);
      expect(answered.body.result.completion.values.length).toBeGreaterThan(0);
    }
  });

  it("refuses it the same way on a 2025-era session", async () => {
    const url = open.handle.url;
    const headers = await session(url, "reader");
    const refused = await post(
      url,
      legacy("completion/complete", completePrompt("audit")),
      "reader",
      headers,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: -32600, data: { requiredScopes: [ADMIN] } });
    const template = await post(
      url,
      legacy("completion/complete", completeTemplate("secret://{id}")),
      "reader",
      headers,
    );
    expect(template.status).toBe(403);
  });

  it("answers exactly as for an unknown entry with hideUnauthorized, in both eras", async () => {
    const url = hidden.handle.url;
    const headers = await session(url, "reader");
    for (const [scoped, unknown] of [
      [completePrompt("audit"), completePrompt("nope")],
      [completeTemplate("secret://{id}"), completeTemplate("nope://{id}")],
    ] as const) {
      for (const [make, extra] of [
        [modern, {}],
        [legacy, headers],
      ] as const) {
        const refused = await post(url, make("completion/complete", scoped), "reader", extra);
        const missing = await post(url, make("completion/complete", unknown), "reader", extra);
        expect(refused.status).toBe(missing.status);
        expect(refused.challenge).toBe(missing.challenge);
        const name = "name" in scoped.ref ? scoped.ref.name : scoped.ref.uri;
        const other = "name" in unknown.ref ? unknown.ref.name : unknown.ref.uri;
        expect(refused.body.error).toStrictEqual({
          ...missing.body.error,
          message: (missing.body.error.message as string).replace(other, name),
        });
      }
    }
    const answered = await post(url, modern("completion/complete", completePrompt("audit")), "admin");
    expect(answered.body.result.completion.values).toEqual(["payroll", "secrets"]);
  });
});

describe("resource subscriptions to a scoped URI", () => {
  it("refuses a 2025-era resources/subscribe without the scopes, 403 step-up", async () => {
    const url = open.handle.url;
    const reader = await session(url, "reader");
    const refused = await post(
      url,
      legacy("resources/subscribe", { uri: "secret://payroll" }),
      "reader",
      reader,
    );
    expect(refused.status).toBe(403);
    expect(refused.challenge).toBe(`Bearer error="insufficient_scope", scope="${READ} ${ADMIN}"`);
    expect(refused.body.error).toMatchObject({ code: -32600, data: { requiredScopes: [ADMIN] } });
    const publicNote = await post(url, legacy("resources/subscribe", { uri: "notes://1" }), "reader", reader);
    expect(publicNote.status).toBe(200);
    const admin = await session(url, "admin");
    const allowed = await post(
      url,
      legacy("resources/subscribe", { uri: "secret://payroll" }),
      "admin",
      admin,
    );
    expect(allowed.status).toBe(200);
    expect(allowed.body.result).toEqual({});
  });

  it("refuses subscriptions/listen naming a scoped URI without the scopes", async () => {
    const refused = await post(
      open.handle.url,
      modern("subscriptions/listen", {
        notifications: { resourceSubscriptions: ["notes://1", "secret://payroll"] },
      }),
      "reader",
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: -32600, data: { requiredScopes: [ADMIN] } });
  });
});

describe("resources/list and a scoped template's list callback", () => {
  it("never runs the callback for a caller without the template's scopes, even with hideUnauthorized off", async () => {
    const url = open.handle.url;
    open.listed.length = 0;
    const reader = await post(url, modern("resources/list"), "reader");
    expect(reader.body.result.resources.map((r: { uri: string }) => r.uri)).toEqual(["notes://1"]);
    expect(open.listed).toEqual([]);
    const admin = await post(url, modern("resources/list"), "admin");
    expect(admin.body.result.resources.map((r: { uri: string }) => r.uri)).toEqual([
      "secret://payroll",
      "notes://1",
    ]);
    expect(open.listed).toEqual(["secret"]);
  });
});
