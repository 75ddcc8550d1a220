/**
 * The examples the guides in `docs/` quote, run as a user runs them: the guides' server over
 * Streamable HTTP on 127.0.0.1 with real clients, and the Express auth example with a static token.
 */
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { McpError } from "tsmcp/types";
import { describe, expect, it, onTestFinished } from "vitest";
import { consoleLines, stderrOf, warningOfProcessLocalKey } from "../../test/helpers/logs.js";
import { serveNotesWithExpress, whoami } from "./auth.js";
import { followNote, importRows, provision, provisionByHand } from "./client.js";
import { type Audit, createDocsServer } from "./server.js";

async function served(audit?: Audit): Promise<URL> {
  const mcp = createDocsServer(audit);
  const handle = await warningOfProcessLocalKey(() => serve(mcp, { host: "127.0.0.1", port: 0 }));
  onTestFinished(async () => {
    await handle.close();
    mcp.close();
  });
  return handle.url;
}

function text(result: { content: readonly { type: string; text?: string }[] }): string | undefined {
  return result.content[0]?.text;
}

describe("the guides' server and client", () => {
  it("the Client runs both rounds of the resolver tool and the handler reads ctx.resolved", async () => {
    const printed = consoleLines("error");
    const result = await provision(await served());
    expect(text(result)).toBe("Provisioned orders in eu-west-1 for tsmcp-client");
    expect(printed).toEqual([
      "round 1, region: Which region should orders live in?",
      "round 2, confirm: Create orders in eu-west-1?",
    ]);
  });

  it("a caller who declares elicitation drives the legs by hand: three legs, then the result", async () => {
    const { legs, result } = await provisionByHand(await served());
    expect(legs).toBe(3);
    expect(text(result)).toBe("Provisioned orders in us-east-1 for tsmcp-client");
  });

  it("a client that declares no elicitation is refused with -32021 before anything is asked", async () => {
    const client = await Client.connect(await served());
    onTestFinished(() => client.close());
    const refused = await client.callTool("provision", { name: "orders" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32021);
  });

  it("an off-schema answer is asked again with the validation message, and a single-use round runs once", async () => {
    const url = await served();
    const messages: string[] = [];
    const client = await Client.connect(url, {
      elicitationCallback: async (params) => {
        messages.push(params.message);
        return {
          action: "accept",
          content: { reason: messages.length === 1 ? "old" : "replaced by search-v2" },
        };
      },
    });
    onTestFinished(() => client.close());
    const result = await client.callTool("delete-project", { project: "search" });
    expect(text(result)).toBe("Deleted search (replaced by search-v2)");
    expect(messages[1]).toMatch(
      /^Why delete search\? \(for the audit log\)\n\nYour previous answer was not accepted \(reason: /,
    );

    const byHand = await Client.connect(url, { capabilities: { elicitation: {} } });
    onTestFinished(() => byHand.close());
    const first = await byHand.session.callTool(
      "delete-project",
      { project: "search" },
      { allowInputRequired: true },
    );
    if (first.resultType !== "input_required") throw new Error("expected input_required");
    const final = {
      allowInputRequired: true,
      inputResponses: { reason: { action: "accept" as const, content: { reason: "replaced by search-v2" } } },
      requestState: first.requestState as string,
    };
    expect(
      text((await byHand.session.callTool("delete-project", { project: "search" }, final)) as never),
    ).toBe("Deleted search (replaced by search-v2)");
    const replay = await stderrOf(() =>
      expect(byHand.session.callTool("delete-project", { project: "search" }, final)).rejects.toMatchObject({
        code: -32602,
        message: "Invalid or expired requestState",
      }),
    );
    expect(replay.lines).toEqual([
      '[tsmcp] warn requestState rejected on tools/call: replayed {"method":"tools/call","reason":"replayed"}',
    ]);
  });

  it("progress reaches onProgress, and the tool reads ctx.auth (none here)", async () => {
    const printed = consoleLines("error");
    const result = await importRows(await served());
    expect(text(result)).toBe("Imported 3 rows for an anonymous caller");
    expect(printed).toEqual(["1/3 row 1", "2/3 row 2", "3/3 row 3"]);
  });

  it.each([
    ["2026-07-28", {}],
    ["2025-11-25", { protocolVersion: "legacy" as const }],
  ])(
    "at %s the listener hears of the edited note and the client reads it again",
    async (version, options) => {
      const url = await served();
      const client = await Client.connect(url, options);
      onTestFinished(() => client.close());
      expect(client.protocolVersion).toBe(version);
      expect(await followNote(url, options)).toBe("Buy oat milk");
    },
  );

  it("structured output, prompts with argsSchema and completion, resources and templates answer", async () => {
    const audit: Audit = { calls: [] };
    const client = await Client.connect(await served(audit), {
      elicitationCallback: async () => ({ action: "accept", content: { focus: "naming" } }),
    });
    onTestFinished(() => client.close());
    expect((await client.callTool("add", { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    const briefing = await client.getPrompt("briefing", { team: "billing" });
    expect(briefing.messages[0]?.content).toEqual({
      type: "text",
      text: "Write a plain status briefing for the billing team.",
    });
    const completed = await client.complete({
      ref: { type: "ref/prompt", name: "briefing" },
      argument: { name: "team", value: "s" },
    });
    expect(completed.completion.values).toEqual(["search", "storage"]);
    const review = await client.getPrompt("review");
    expect(review.messages[0]?.content).toEqual({ type: "text", text: "Review this change for naming." });
    const listed = await client.listResources();
    expect(listed.resources.map((resource) => resource.uri)).toEqual([
      "docs://readme",
      "notes://1",
      "notes://2",
    ]);
    const note = await client.readResource("notes://2");
    expect(note.contents[0]).toMatchObject({ uri: "notes://2", text: "Ship the release" });
    const missing = await client.readResource("notes://9").catch((error: unknown) => error);
    expect((missing as McpError).code).toBe(-32602);
    expect(text(await client.callTool("quote-note", { id: "1" }))).toBe('"Buy milk"');
    const switchedOff = await client.callTool("forbidden").catch((error: unknown) => error);
    expect((switchedOff as McpError).message).toBe("This tool is switched off");
    expect(audit.calls).toContain("tools/call add");
    expect(audit.calls).toContain("prompts/get review");
  });
});

describe("the auth example", () => {
  const tokens = {
    "alice-token": { subject: "alice", scopes: ["notes:read", "notes:write"] },
    "bob-token": { subject: "bob", scopes: ["notes:read"] },
  };

  it("a static bearer token reaches ctx.auth; a missing scope is refused; an unknown token gets 401", async () => {
    const { url, server } = await warningOfProcessLocalKey(() => serveNotesWithExpress(tokens));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    expect(await whoami(url, "alice-token")).toBe("alice (notes:read notes:write)");
    const { result: unknown, lines } = await stderrOf(() =>
      fetch(url, {
        method: "POST",
        headers: { authorization: "Bearer nobody", "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(unknown.status).toBe(401);
    expect(lines).toEqual([
      '[tsmcp] warn Streamable HTTP refused a request: unknown token {"status":401,"error":"invalid_token","reason":"unknown token"}',
    ]);
    expect(unknown.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const bob = await whoami(url, "bob-token");
    expect(bob).toBe("bob (notes:read)");
  });

  it("Express serves the protected resource metadata at both well-known paths", async () => {
    const { url, server } = await warningOfProcessLocalKey(() => serveNotesWithExpress(tokens));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const answer = await fetch(new URL(path, url));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({
        resource: url.href,
        authorization_servers: ["https://auth.example.com"],
      });
    }
  });
});
