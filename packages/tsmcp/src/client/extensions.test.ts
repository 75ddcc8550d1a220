/**
 * Extensions end to end: the made-up `com.example/audit` extension (fixtures/audit-extension.ts)
 * served by an `MCPServer` and called by a `Client`, in both eras (2026-07-28 and a 2025-era
 * session) over real transports: in memory, Streamable HTTP on 127.0.0.1, and stdio with a spawned
 * process. Spec: https://modelcontextprotocol.io/extensions/overview (Negotiation).
 */
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { McpError } from "../protocol/errors.js";
import { defineExtension } from "../protocol/extension.js";
import { type HttpServerHandle, serve } from "../transport/http/node/node.js";
import { Client, type ClientOptions } from "./client.js";
import { ExtensionNotSupportedError, InvalidServerResponseError } from "./errors.js";
import { audit, auditServer, ENTRIES } from "./fixtures/audit-extension.js";

const AUDIT_SERVER = fileURLToPath(new URL("./fixtures/audit-server.ts", import.meta.url));
const STDIO = { command: process.execPath, args: ["--import", "tsx", AUDIT_SERVER] };

/** An extension the client knows and the server does not serve. */
const absent = defineExtension({
  id: "com.example/absent",
  methods: { "absent/ping": { params: z.object({}), result: z.object({}) } },
});

let http: HttpServerHandle;
beforeAll(async () => {
  http = await serve(auditServer(), { keepAliveMs: 0 });
});
afterAll(async () => {
  await http.close();
});

const TRANSPORTS = {
  "in memory": () => auditServer(),
  "HTTP on 127.0.0.1": () => http.url,
  "stdio (spawned process)": () => STDIO,
} as const;

const ERAS = [
  ["2026-07-28", "2026-07-28"],
  ["2025 era", "legacy"],
] as const;

describe.each(Object.entries(TRANSPORTS))("the audit extension %s", (_name, target) => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function connect(
    mode: ClientOptions["protocolVersion"],
    options: ClientOptions = {},
  ): Promise<Client> {
    const client = await Client.connect(target() as Parameters<typeof Client.connect>[0], {
      protocolVersion: mode,
      ...options,
    });
    clients.push(client);
    return client;
  }

  describe.each(ERAS)("at %s", (_era, mode) => {
    it("advertises the extension and the unknown one, with their settings as sent", async () => {
      const client = await connect(mode);
      expect(client.era).toBe(mode === "legacy" ? "legacy" : "modern");
      expect(client.serverExtensions).toEqual({
        "com.example/audit": { retentionDays: 30 },
        "org.other/unknown": { level: 3 },
      });
      expect(client.supportsExtension(audit)).toBe(true);
      expect(client.supportsExtension("org.other/unknown")).toBe(true);
      expect(client.supportsExtension(absent)).toBe(false);
    });

    it("calls a method and receives its notifications, typed by the declaration", async () => {
      const client = await connect(mode);
      const seen: string[] = [];
      const stop = client.onExtensionNotification(audit, "notifications/audit/entry", ({ entry }) => {
        seen.push(entry);
      });
      const result = await client.requestExtension(audit, "audit/recent", { limit: 2 });
      expect(result).toEqual({ entries: ENTRIES.slice(0, 2) });
      await expect.poll(() => seen).toEqual(ENTRIES.slice(0, 2));
      stop();
      await client.requestExtension(audit, "audit/recent", { limit: 1 });
      expect(seen).toHaveLength(2);
    });

    it("calls a cacheable method; the server sees every extension the client declared, unknown ones included", async () => {
      const raw: Record<string, unknown>[] = [];
      const client = await connect(mode, {
        extensions: [{ extension: audit, settings: { verbose: true } }],
        capabilities: { extensions: { "net.someone/else": { x: 1 } } },
        onMessage: (message, direction) => {
          if (direction === "received" && "result" in message)
            raw.push(message.result as Record<string, unknown>);
        },
      });
      const summary = await client.session.requestExtension(audit, "audit/summary", {});
      expect(summary).toEqual({
        count: ENTRIES.length,
        clientExtensions: { "com.example/audit": { verbose: true }, "net.someone/else": { x: 1 } },
      });
      const last = raw.at(-1) as Record<string, unknown>;
      if (mode === "legacy") {
        expect(last).not.toHaveProperty("resultType");
        expect(last).not.toHaveProperty("ttlMs");
      } else {
        expect(last).toMatchObject({ resultType: "complete", ttlMs: 5000, cacheScope: "public" });
      }
    });

    it("answers -32602 for params the schema refuses", async () => {
      const client = await connect(mode);
      const error = await client.requestExtension(audit, "audit/recent", { limit: 500 }).catch((e) => e);
      expect(error).toBeInstanceOf(McpError);
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/Invalid params: limit/);
    });

    it("refuses locally, sending nothing, an extension the server did not advertise", async () => {
      const sent: string[] = [];
      const client = await connect(mode, {
        onMessage: (message, direction) => {
          if (direction === "sent" && "method" in message) sent.push(message.method);
        },
      });
      const before = sent.length;
      const error = await client.requestExtension(absent, "absent/ping", {}).catch((e) => e);
      expect(error).toBeInstanceOf(ExtensionNotSupportedError);
      expect(error.name).toBe("ExtensionNotSupportedError");
      expect(error.message).toContain("com.example/absent");
      expect(error.message).toContain("audit-server");
      expect(sent.length).toBe(before);
    });
  });

  it("a requiresClientDeclaration method: declared by requestExtension at 2026-07-28, -32021 on an undeclared 2025-era session", async () => {
    const modern = await connect("2026-07-28");
    expect(await modern.requestExtension(audit, "audit/purge", { before: "2026-01-01" })).toEqual({
      purged: 2,
    });

    const legacy = await connect("legacy");
    const error = await legacy
      .requestExtension(audit, "audit/purge", { before: "2026-01-01" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { extensions: { "com.example/audit": {} } } });

    const declared = await connect("legacy", { extensions: [audit] });
    expect(await declared.requestExtension(audit, "audit/purge", { before: "2026-01-01" })).toEqual({
      purged: 2,
    });
  });
});

describe("the audit extension on the raw wire (in memory)", () => {
  it("answers -32021 for an undeclared requiresClientDeclaration request and -32601 for an unregistered extension's method", async () => {
    const client = await Client.connect(auditServer());
    const undeclared = await client.session
      .request("audit/purge" as "tools/list", { before: "x" })
      .catch((e) => e);
    expect(undeclared).toBeInstanceOf(McpError);
    expect(undeclared.code).toBe(-32021);
    expect(undeclared.data.requiredCapabilities.extensions).toEqual({ "com.example/audit": {} });
    const unknown = await client.session.request("absent/ping" as "tools/list", {}).catch((e) => e);
    expect(unknown.code).toBe(-32601);
    await client.close();
  });

  it("InvalidServerResponseError for a result that does not match the declaration", async () => {
    const lying = defineExtension({
      id: "com.example/audit",
      methods: {
        "audit/recent": { params: z.object({ limit: z.number() }), result: z.object({ total: z.number() }) },
      },
    });
    const client = await Client.connect(auditServer());
    const error = await client.requestExtension(lying, "audit/recent", { limit: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidServerResponseError);
    await client.close();
  });
});
