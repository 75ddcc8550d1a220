/**
 * The extensions guide's example (notes.ts, client.ts) in memory, in both eras: the declaration
 * negotiated, its methods called, its notification received, the cache hint from the `cache` option,
 * the errors (-32602, -32021, -32601 and the client's ExtensionNotSupportedError), and the client's
 * extensions read by a tool. Spec: https://modelcontextprotocol.io/extensions/overview.
 */
import { Client } from "tsmcp/client";
import { MCPServer } from "tsmcp/server";
import { describe, expect, it } from "vitest";
import { requestMeta, rpc } from "../../test/helpers/meta.js";
import { addAndList, listIfSupported } from "./client.js";
import { createNotesServer, notes } from "./notes.js";

const env = () => ({ signal: new AbortController().signal });

describe.each([
  ["2026-07-28", undefined],
  ["a 2025-era session", "legacy"],
] as const)("the notes extension at %s", (_era, mode) => {
  it("is advertised, called, and notifies", async () => {
    const { note, listed, added, advertised } = await addAndList(createNotesServer(), mode);
    expect(note).toEqual({ id: "1", text: "buy milk" });
    expect(listed).toEqual([note]);
    expect(added).toEqual(["1"]);
    expect(advertised).toEqual({ "com.example/notes": { maxLength: 280 } });
  });

  it("is refused locally by a client of a server without it", async () => {
    const plain = new MCPServer("plain");
    plain.tool("noop", {}, () => "ok");
    const client = await Client.connect(plain, mode === undefined ? {} : { protocolVersion: mode });
    try {
      expect(await listIfSupported(client)).toBeUndefined();
      await expect(client.requestExtension(notes, "notes/list", {})).rejects.toMatchObject({
        name: "ExtensionNotSupportedError",
        extension: "com.example/notes",
      });
    } finally {
      await client.close();
    }
  });

  it("shows a tool the extensions the client declared, unknown ones included", async () => {
    const client = await Client.connect(createNotesServer(), {
      extensions: [notes],
      capabilities: { extensions: { "org.other/thing": { a: 1 } } },
      ...(mode === undefined ? {} : { protocolVersion: mode }),
    });
    try {
      const result = await client.callTool("client_extensions", {});
      expect(result.content[0]).toMatchObject({ text: "org.other/thing, com.example/notes" });
    } finally {
      await client.close();
    }
  });
});

describe("the notes extension on the 2026-07-28 wire", () => {
  it("answers notes/list with the cache hint of the cache option", async () => {
    const response = await createNotesServer().handle(rpc("notes/list", {}), env());
    expect(response).toMatchObject({ result: { resultType: "complete", notes: [], ttlMs: 10_000 } });
  });

  it("answers -32602 for bad params, -32021 for notes/add undeclared, -32601 without the extension", async () => {
    const mcp = createNotesServer();
    expect(
      await mcp.handle(
        rpc("notes/add", { text: "", _meta: requestMeta({ extensions: { "com.example/notes": {} } }) }),
        env(),
      ),
    ).toMatchObject({
      error: { code: -32602 },
    });
    expect(await mcp.handle(rpc("notes/add", { text: "x" }), env())).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { extensions: { "com.example/notes": {} } } } },
    });
    expect(await new MCPServer("plain").handle(rpc("notes/list", {}), env())).toMatchObject({
      error: { code: -32601 },
    });
  });
});
