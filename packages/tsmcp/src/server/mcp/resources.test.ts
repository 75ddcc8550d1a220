/**
 * `MCPServer` resources and resource templates end to end over Streamable HTTP: reads, not-found,
 * listing, completion, nested reads, and a template that asks the user through MRTR.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import { readElicitation } from "../schema/elicitation-answer.js";
import { NESTED_INPUT_REQUIRED_MESSAGE } from "./context.js";
import { overHttp, postRaw, recordingLogger } from "./mcp-test-fixtures.js";
import { STATIC_INPUT_REQUIRED_MESSAGE } from "./resources.js";
import { MCPServer } from "./server.js";

const notes = new Map([
  ["1", "Buy milk"],
  ["2", "Call Ada"],
]);

function notesServer(options: { pageSize?: number } = {}): MCPServer {
  const mcp = new MCPServer("notes", { ...options, requestStateSecurity: testRequestStateSecurity() });
  mcp.resource(
    "notes://welcome",
    { description: "Start here", mimeType: "text/markdown" },
    () => "# Welcome",
  );
  mcp.resource(
    "notes://{id}",
    {
      name: "note",
      mimeType: "text/plain",
      list: () => [...notes.keys()].map((id) => ({ uri: `notes://${id}`, name: `Note ${id}` })),
      complete: { id: (value) => [...notes.keys()].filter((id) => id.startsWith(value)) },
    },
    ({ id }) => notes.get(id),
  );
  return mcp;
}

const ASK_PASSPHRASE_HINT = elicitationRequest({
  message: "Which vault folder may I open?",
  requestedSchema: { type: "object", properties: { folder: { type: "string" } }, required: ["folder"] },
});

/** A client that drives the loop itself but declares forms, as these tools and templates ask one. */
const ANSWERS_FORMS = { capabilities: { elicitation: { form: {} } } };

describe("resources/read", () => {
  it("reads a static resource with its MIME type", async () => {
    const { client } = await overHttp(notesServer());
    const result = await client.readResource("notes://welcome");
    expect(result.contents).toEqual([
      { uri: "notes://welcome", mimeType: "text/markdown", text: "# Welcome" },
    ]);
    expect(result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });

  it("reads a template with the variables extracted from the URI", async () => {
    const { client } = await overHttp(notesServer());
    expect((await client.readResource("notes://2")).contents).toEqual([
      { uri: "notes://2", mimeType: "text/plain", text: "Call Ada" },
    ]);
  });

  it("prefers an exact static URI over a template that also matches", async () => {
    const mcp = notesServer();
    mcp.resource("notes://pinned", {}, () => "static wins");
    const { client } = await overHttp(mcp);
    expect((await client.readResource("notes://pinned")).contents[0]).toMatchObject({ text: "static wins" });
  });

  it("answers a missing resource with -32602 and data.uri, never empty contents", async () => {
    const { url } = await overHttp(notesServer());
    for (const uri of ["notes://404", "other://1", "notes://a/b"]) {
      expect(await postRaw(url, "resources/read", { uri })).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32602, message: "Resource not found", data: { uri } },
      });
    }
  });

  it("treats an empty contents array from a handler as missing", async () => {
    const mcp = new MCPServer("r", { requestStateSecurity: testRequestStateSecurity() });
    mcp.resource("empty://{id}", {}, () => []);
    const { client } = await overHttp(mcp);
    await expect(client.readResource("empty://x")).rejects.toMatchObject({
      code: -32602,
      data: { uri: "empty://x" },
    });
  });

  it("sends bytes as a base64 blob and contents as given, defaulting uri and mimeType", async () => {
    const mcp = new MCPServer("r", { requestStateSecurity: testRequestStateSecurity() });
    mcp.resource("bin://logo", { mimeType: "image/png" }, () => new Uint8Array([1, 2, 3]));
    mcp.resource("dir://{name}", { mimeType: "text/plain" }, ({ name }) => ({
      contents: [{ text: `${name}/a` }, { uri: `dir://${name}/b`, text: "b", mimeType: "text/x-b" }],
    }));
    const { client } = await overHttp(mcp);
    expect((await client.readResource("bin://logo")).contents).toEqual([
      { uri: "bin://logo", mimeType: "image/png", blob: "AQID" },
    ]);
    expect((await client.readResource("dir://root")).contents).toEqual([
      { uri: "dir://root", mimeType: "text/plain", text: "root/a" },
      { uri: "dir://root/b", mimeType: "text/x-b", text: "b" },
    ]);
  });

  it("stamps a resource's own cache hints on its reads", async () => {
    const mcp = new MCPServer("r", { requestStateSecurity: testRequestStateSecurity() });
    mcp.resource("config://app", { cache: { ttlMs: 60_000, cacheScope: "public" } }, () => "{}");
    const { client } = await overHttp(mcp);
    expect(await client.readResource("config://app")).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
  });

  it("refuses an InputRequiredResult from a static resource: -32603 naming the URI, the reason logged", async () => {
    const logger = recordingLogger();
    const mcp = new MCPServer("r", { logger });
    mcp.resource("vault://index", {}, (() =>
      inputRequired({ inputRequests: { folder: ASK_PASSPHRASE_HINT } })) as never);
    const { client } = await overHttp(mcp);
    await expect(client.readResource("vault://index")).rejects.toMatchObject({
      code: -32603,
      message: "Error reading resource vault://index",
      data: { uri: "vault://index" },
    });
    expect(logger.records).toContainEqual(
      expect.objectContaining({
        level: "error",
        message: "handler for resources/read failed",
        fields: { error: new Error(`resource "vault://index": ${STATIC_INPUT_REQUIRED_MESSAGE}`) },
      }),
    );
  });
});

describe("a resource template that asks for input", () => {
  function vaultServer(): MCPServer {
    const mcp = new MCPServer("vault", { requestStateSecurity: testRequestStateSecurity() });
    mcp.resource("vault://{item}", { mimeType: "text/plain" }, ({ item }, ctx) => {
      const answer = readElicitation(ctx.inputResponses?.folder, z.object({ folder: z.string() }));
      if (answer.status !== "accepted") {
        return inputRequired({
          inputRequests: { folder: ASK_PASSPHRASE_HINT },
          requestState: `vault:${item}`,
        });
      }
      return `${item} from ${answer.content.folder} (state ${ctx.requestState})`;
    });
    return mcp;
  }

  it("completes through the client's MRTR loop", async () => {
    let asked = 0;
    const { client } = await overHttp(vaultServer(), {
      elicitationCallback: async () => {
        asked++;
        return { action: "accept", content: { folder: "personal" } };
      },
    });
    const result = await client.readResource("vault://passport");
    expect(asked).toBe(1);
    expect(result.contents).toEqual([
      {
        uri: "vault://passport",
        mimeType: "text/plain",
        text: "passport from personal (state vault:passport)",
      },
    ]);
  });

  it("answers the first leg with a sealed state and no cache hints", async () => {
    const { client } = await overHttp(vaultServer(), ANSWERS_FORMS);
    const first = await client.session.readResource("vault://passport", { allowInputRequired: true });
    expect(first).toMatchObject({
      resultType: "input_required",
      inputRequests: { folder: ASK_PASSPHRASE_HINT },
    });
    expect(first).not.toHaveProperty("ttlMs");
    expect((first as { requestState: string }).requestState).toMatch(/^v1\./);
  });
});

describe("resources/list and resources/templates/list", () => {
  it("lists static resources and what templates report, in registration order", async () => {
    const { client } = await overHttp(notesServer());
    expect((await client.listResources()).resources).toEqual([
      {
        uri: "notes://welcome",
        name: "notes://welcome",
        description: "Start here",
        mimeType: "text/markdown",
      },
      { uri: "notes://1", name: "Note 1", mimeType: "text/plain" },
      { uri: "notes://2", name: "Note 2", mimeType: "text/plain" },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "notes://{id}", name: "note", mimeType: "text/plain" },
    ]);
  });

  it("pages across static resources and template listings without skipping or repeating", async () => {
    const { client } = await overHttp(notesServer({ pageSize: 2 }));
    const first = await client.listResources();
    expect(first.resources.map((r) => r.uri)).toEqual(["notes://welcome", "notes://1"]);
    const second = await client.listResources({ cursor: first.nextCursor as string });
    expect(second.resources.map((r) => r.uri)).toEqual(["notes://2"]);
    expect(second.nextCursor).toBeUndefined();
    await expect(client.listResources({ cursor: "x" })).rejects.toMatchObject({ code: -32602 });
    await expect(client.listResourceTemplates({ cursor: first.nextCursor as string })).rejects.toMatchObject({
      code: -32602,
      message: "Invalid cursor",
    });
  });

  it("walks resources/templates/list across several pages with nextCursor, in registration order", async () => {
    const mcp = new MCPServer("templates", { pageSize: 2, requestStateSecurity: testRequestStateSecurity() });
    const uris = ["a://{x}", "b://{x}", "c://{x}", "d://{x}", "e://{x}"];
    for (const uri of uris) mcp.resource(uri, {}, () => "");
    mcp.resource("static://one", {}, () => "");
    const { client } = await overHttp(mcp);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor });
      pages.push(page.resourceTemplates.map((t) => t.uriTemplate));
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThanOrEqual(3);
    } while (cursor !== undefined);
    expect(pages).toEqual([["a://{x}", "b://{x}"], ["c://{x}", "d://{x}"], ["e://{x}"]]);
    const first = await client.listResourceTemplates();
    await expect(client.listResources({ cursor: first.nextCursor as string })).rejects.toMatchObject({
      code: -32602,
      message: "Invalid cursor",
    });
  });
});

describe("completion of template variables", () => {
  it("suggests values from the variable's completer, and refuses an unknown template", async () => {
    const { client } = await overHttp(notesServer());
    const { completion } = await client.complete({
      ref: { type: "ref/resource", uri: "notes://{id}" },
      argument: { name: "id", value: "2" },
    });
    expect(completion).toEqual({ values: ["2"] });
    await expect(
      client.complete({
        ref: { type: "ref/resource", uri: "notes://welcome" },
        argument: { name: "id", value: "" },
      }),
    ).rejects.toMatchObject({ code: -32602, message: "Unknown resource template: notes://welcome" });
  });
});

describe("ctx.readResource", () => {
  it("reads another resource from inside a tool", async () => {
    const mcp = notesServer();
    mcp.tool("summarize", { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
      const { contents } = await ctx.readResource(`notes://${id}`);
      return `Summary: ${(contents[0] as { text: string }).text}`;
    });
    const { client } = await overHttp(mcp);
    expect((await client.callTool("summarize", { id: "1" })).content).toEqual([
      { type: "text", text: "Summary: Buy milk" },
    ]);
  });

  it("reads a template as round one, even when the outer request carries answers, and cannot ask", async () => {
    const mcp = new MCPServer("nested", { requestStateSecurity: testRequestStateSecurity() });
    const seen: unknown[] = [];
    mcp.resource("ask://{x}", {}, (_vars, ctx) => {
      seen.push(ctx.inputResponses, ctx.requestState);
      return inputRequired({ inputRequests: { folder: ASK_PASSPHRASE_HINT } });
    });
    mcp.tool("outer", {}, async (_args, ctx) => {
      seen.push(ctx.inputResponses?.folder);
      await ctx.readResource("ask://1");
      return "unreachable";
    });
    const { client } = await overHttp(mcp);
    const result = await client.session.callTool("outer", undefined, {
      inputResponses: { folder: { action: "accept", content: { folder: "f" } } },
    });
    expect(seen).toEqual([{ action: "accept", content: { folder: "f" } }, undefined, undefined]);
    expect(result).toEqual(
      expect.objectContaining({
        isError: true,
        content: [{ type: "text", text: NESTED_INPUT_REQUIRED_MESSAGE }],
      }),
    );
  });

  it("reads a template as round one when the outer request is a retry with sealed state and answers", async () => {
    const mcp = new MCPServer("nested", { requestStateSecurity: testRequestStateSecurity() });
    const nested: { requestState: unknown; inputResponses: unknown }[] = [];
    const outer: { requestState: unknown; folder: unknown }[] = [];
    mcp.resource("peek://{x}", {}, ({ x }, ctx) => {
      nested.push({ requestState: ctx.requestState, inputResponses: ctx.inputResponses });
      return `peeked ${x}`;
    });
    mcp.tool("outer", {}, async (_args, ctx) => {
      outer.push({ requestState: ctx.requestState, folder: ctx.inputResponses?.folder });
      if (ctx.requestState !== "outer-round-1") {
        return inputRequired({
          inputRequests: { folder: ASK_PASSPHRASE_HINT },
          requestState: "outer-round-1",
        });
      }
      const { contents } = await ctx.readResource("peek://1");
      return (contents[0] as { text: string }).text;
    });
    const { client } = await overHttp(mcp, ANSWERS_FORMS);
    const first = await client.session.callTool("outer", undefined, { allowInputRequired: true });
    expect(first).toMatchObject({
      resultType: "input_required",
      inputRequests: { folder: ASK_PASSPHRASE_HINT },
    });
    const sealed = (first as { requestState: string }).requestState;
    expect(sealed).toMatch(/^v1\./);
    const answer = { action: "accept", content: { folder: "f" } } as const;
    const retry = await client.session.callTool("outer", undefined, {
      allowInputRequired: true,
      requestState: sealed,
      inputResponses: { folder: answer },
    });
    expect(retry).toEqual(expect.objectContaining({ content: [{ type: "text", text: "peeked 1" }] }));
    expect(retry).not.toHaveProperty("isError");
    expect(outer).toEqual([
      { requestState: undefined, folder: undefined },
      { requestState: "outer-round-1", folder: answer },
    ]);
    expect(nested).toEqual([{ requestState: undefined, inputResponses: undefined }]);
  });

  it("fails a nested read of a missing resource with -32602 naming the URI", async () => {
    const mcp = new MCPServer("nested", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("outer", {}, async (_args, ctx) => ctx.readResource("nothing://here").then(() => "found"));
    const { client } = await overHttp(mcp);
    await expect(client.callTool("outer")).rejects.toMatchObject({
      code: -32602,
      data: { uri: "nothing://here" },
    });
  });
});

describe("registering a resource", () => {
  it("refuses a URI without a scheme, bad templates, duplicates and template-only options on statics", () => {
    const mcp = new MCPServer("r", { requestStateSecurity: testRequestStateSecurity() });
    mcp.resource("notes://{id}", {}, () => "");
    expect(() => mcp.resource("no-scheme", {}, () => "")).toThrow(/must start with a scheme/);
    expect(() => mcp.resource("notes://{id*}", {}, () => "")).toThrow(/modifiers/);
    expect(() => mcp.resource("notes://{id}", {}, () => "")).toThrow(
      /resource template "notes:\/\/\{id\}" is already registered/,
    );
    expect(() => mcp.resource("notes://static", { list: () => [] } as never, () => "")).toThrow(
      /list and complete are for resource templates/,
    );
    expect(() => mcp.resource("t://{a}", { complete: { b: () => [] } } as never, () => "")).toThrow(
      /complete.b names no argument/,
    );
    expect(() => mcp.resource("c://x", { cache: { ttlMs: -1 } }, () => "")).toThrow(RangeError);
  });
});
