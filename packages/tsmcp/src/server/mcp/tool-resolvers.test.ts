/**
 * Tools with resolvers on `MCPServer`, through a real `Client` in memory and over Streamable HTTP:
 * what registration checks and advertises, which arguments a handler sees, the one-channel rule,
 * how failures reach the client, and the capability gate.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import { InputRequiredRoundsExceededError } from "../../client/errors.js";
import { McpError } from "../../protocol/errors.js";
import { inputRequired } from "../input-required.js";
import { elicit } from "../resolve/elicit.js";
import { listRoots } from "../resolve/list-roots.js";
import { outcome, resolver } from "../resolve/resolver.js";
import { sample } from "../resolve/sample.js";
import { answering, BOTH_TRANSPORTS, connect, recordLegs, textOf } from "./resolvers-test-fixtures.js";
import { MCPServer } from "./server.js";

const Region = z.object({ region: z.enum(["eu-west-1", "us-east-1"]) });
const Ok = z.object({ ok: z.boolean() });
const region = resolver("region", ({ args }) =>
  elicit(`Which region should ${String(args.name)} live in?`, Region),
);

describe("registering a tool with resolvers", () => {
  it("leaves the resolved names out of the advertised input schema", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool(
      "provision",
      {
        inputSchema: z.object({ name: z.string(), region: z.string().optional() }),
        resolve: { region },
      },
      async ({ name }, { resolved: { region } }) => `${name} in ${region.region}`,
    );
    const client = await connect(mcp, "memory");
    const [tool] = (await client.listTools()).tools;
    expect(tool?.inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    });
  });

  it("refuses an entry that is not a resolver, two resolvers of one name, and a required resolved name", () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const handler = async () => "";
    expect(() => mcp.tool("a", { resolve: { region: (() => "eu") as never } }, handler)).toThrow(
      'tool "a": resolve.region is not a resolver',
    );
    const impostor = resolver("region", () => "eu-west-1");
    const zone = resolver("zone", { needs: { region: impostor } }, () => "a");
    expect(() => mcp.tool("b", { resolve: { region, zone } }, handler)).toThrow(
      'tool "b": two different resolvers are named "region"',
    );
    expect(() =>
      mcp.tool("c", { inputSchema: z.object({ region: z.string() }), resolve: { region } } as never, handler),
    ).toThrow('tool "c": "region" is filled by a resolver, so it cannot be a required argument');
  });
});

describe.each(BOTH_TRANSPORTS)("a tool with resolvers, %s", (via) => {
  it("fills a parameter from a computed value without any client interaction", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    const slug = resolver("slug", ({ args }) => String(args.name).toLowerCase());
    mcp.tool(
      "make",
      { inputSchema: z.object({ name: z.string() }), resolve: { slug } },
      (_args, { resolved: { slug } }) => slug,
    );
    const { asked, callback } = answering({});
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("make", { name: "Orders" }))).toBe("orders");
    expect(asked).toEqual([]);
    expect(legs).toHaveLength(1);
  });

  it("lets a resolver depend on another's value and see the tool's arguments", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const zone = resolver(
      "zone",
      { needs: { region } },
      ({ args, needs }) => `${needs.region.region}-${String(args.az)}`,
    );
    mcp.tool(
      "place",
      { inputSchema: z.object({ name: z.string(), az: z.string() }), resolve: { zone } },
      (args, { resolved: { zone } }) => `${args.name} in ${zone}`,
    );
    const { callback } = answering({ region: { region: "eu-west-1" } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("place", { name: "orders", az: "b" }))).toBe("orders in eu-west-1-b");
  });

  it("gives resolvers and the handler the same validated arguments, defaults computed once per round", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    let defaults = 0;
    const Input = z.object({
      name: z.string(),
      ticket: z.string().default(() => {
        defaults += 1;
        return `T-${defaults}`;
      }),
    });
    const seen: unknown[] = [];
    const check = resolver("check", async ({ args }) => {
      seen.push(args);
      return elicit(`File a ticket for ${String(args.name)}?`, Ok);
    });
    mcp.tool("file", { inputSchema: Input, resolve: { check } }, (args, { resolved: { check } }) => {
      seen.push(args);
      return `${args.ticket}: ${check.ok}`;
    });
    const client = await connect(mcp, via, {
      elicitationCallback: answering({ check: { ok: true } }).callback,
    });
    const atRegistration = defaults; // zod evaluates a default once to advertise it
    expect(textOf(await client.callTool("file", { name: "x", ticket: "T-9" }))).toBe("T-9: true");
    expect(defaults).toBe(atRegistration);
    expect(seen).toHaveLength(3);
    expect(seen[1]).toBe(seen[2]);
    expect(textOf(await client.callTool("file", { name: "y" }))).toBe(`T-${atRegistration + 2}: true`);
    expect(defaults - atRegistration).toBe(2);
  });

  it("asks a question built from a volatile value again every round, until the client's budget ends the call", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    let clock = 0;
    const stamp = resolver("stamp", () => elicit(`Confirm at tick ${++clock}?`, Ok));
    mcp.tool("stamp", { resolve: { stamp } }, () => "never");
    const { asked, callback } = answering({ stamp: { ok: true } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    await expect(client.callTool("stamp")).rejects.toBeInstanceOf(InputRequiredRoundsExceededError);
    expect(legs).toHaveLength(11);
    expect(asked).toHaveLength(10);
  });

  it("hands the handler one (args, ctx) shape: the values on ctx.resolved, the rest of the context intact", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    mcp.resource("notes://readme", {}, () => "read me");
    const seen: Record<string, unknown>[] = [];
    mcp.tool("where", { resolve: { region } }, async (_args, ctx) => {
      const nested = await ctx.readResource("notes://readme");
      seen.push({
        resolved: ctx.resolved,
        frozen: Object.isFrozen(ctx.resolved),
        method: ctx.method,
        round: ctx.requestState === undefined ? "first" : "retry",
        nested: nested.contents.length,
      });
      return ctx.resolved.region.region;
    });
    mcp.tool("plain", {}, (_args, ctx) => ("resolved" in ctx ? "has resolved" : "no resolved"));
    const { callback } = answering({ region: { region: "us-east-1" } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("where"))).toBe("us-east-1");
    expect(seen).toEqual([
      {
        resolved: { region: { region: "us-east-1" } },
        frozen: true,
        method: "tools/call",
        round: "retry",
        nested: 1,
      },
    ]);
    expect(textOf(await client.callTool("plain"))).toBe("no resolved");
  });

  it("ignores a value the client sends under a resolved name", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const seen: unknown[] = [];
    mcp.tool("where", { resolve: { region } }, (args, { resolved: { region } }) => {
      seen.push(args);
      return region.region;
    });
    const { callback } = answering({ region: { region: "us-east-1" } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    const result = await client.callTool("where", { region: "mars" });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("us-east-1");
    expect(seen).toEqual([{}]);
  });

  it("fails with an isError result naming the one-channel rule when the handler returns an InputRequiredResult anyway", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const effects: string[] = [];
    const sneaky = (async (_args: unknown, { resolved }: { resolved: { region: { region: string } } }) => {
      effects.push(resolved.region.region);
      return inputRequired({ requestState: "mine" });
    }) as unknown as () => string;
    mcp.tool("sneaky", { resolve: { region } }, sneaky);
    const { callback } = answering({ region: { region: "eu-west-1" } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    const result = await client.callTool("sneaky");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Tool "sneaky" returned an InputRequiredResult, but its rounds are driven by its resolvers: a call has ' +
        "one input_required channel, so the multi-round flow is driven either by resolvers or by the tool handler, not both",
    );
    expect(effects).toEqual(["eu-west-1"]);
  });

  it("turns a resolver's error into an isError result, but keeps an McpError a protocol error", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const broken = resolver("broken", () => {
      throw new Error("the inventory is down");
    });
    const refusing = resolver("refusing", () => {
      throw new McpError(-32602, "no such tenant");
    });
    mcp.tool("broken", { resolve: { broken } }, () => "never");
    mcp.tool("refusing", { resolve: { refusing } }, () => "never");
    const client = await connect(mcp, via);
    const result = await client.callTool("broken");
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "the inventory is down" }],
    });
    await expect(client.callTool("refusing")).rejects.toMatchObject({
      code: -32602,
      message: "no such tenant",
    });
  });

  it("refuses with -32021 instead of asking a client without the capability, and stays usable", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    mcp.tool("provision", { resolve: { region } }, (_a, { resolved: { region } }) => region.region);
    mcp.tool("ping", {}, () => "pong");
    const client = await connect(mcp, via);
    const error = await client.callTool("provision").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32021,
      message: "Client did not declare the form elicitation capability required by resolver 'region'",
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    expect(legs).toHaveLength(1);
    expect(textOf(await client.callTool("ping"))).toBe("pong");
  });

  it("gates sampling, sampling with tools, and roots on their capabilities", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const messages = [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }];
    const summary = resolver("summary", () => sample({ messages, maxTokens: 5 }));
    const planned = resolver("planned", () =>
      sample({ messages, maxTokens: 5, toolChoice: { mode: "auto" } }),
    );
    const roots = resolver("roots", () => listRoots());
    mcp.tool("summary", { resolve: { summary } }, () => "");
    mcp.tool("planned", { resolve: { planned } }, () => "");
    mcp.tool("roots", { resolve: { roots } }, () => "");
    const client = await connect(mcp, via, {
      samplingCallback: () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }),
    });
    await expect(client.callTool("planned")).rejects.toMatchObject({
      code: -32021,
      message: "Client did not declare the sampling.tools capability required by resolver 'planned'",
      data: { requiredCapabilities: { sampling: { tools: {} } } },
    });
    await expect(client.callTool("roots")).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { roots: {} } },
    });
    expect((await client.callTool("summary")).isError).toBeUndefined();
  });

  it("seals its state: the client never sees recorded answers or question digests in clear", async () => {
    const mcp = new MCPServer("resolvers", { requestStateSecurity: testRequestStateSecurity() });
    const confirm = resolver("confirm", { needs: { region } }, () => elicit("Sure?", Ok));
    mcp.tool("provision", { resolve: { region, confirm: outcome(confirm) } }, () => "done");
    const client = await connect(mcp, via, { elicitationCallback: answering({}).callback });
    const first = await client.session.callTool("provision", {}, { allowInputRequired: true });
    if (first.resultType !== "input_required") throw new Error("expected input_required");
    expect(first.requestState).toMatch(/^v1\./);
    expect(first.requestState).not.toContain("outcomes");
    const second = await client.session.callTool(
      "provision",
      {},
      {
        allowInputRequired: true,
        inputResponses: { region: { action: "accept", content: { region: "eu-west-1" } } },
        ...(first.requestState === undefined ? {} : { requestState: first.requestState }),
      },
    );
    expect(second).toMatchObject({ resultType: "input_required", inputRequests: { confirm: {} } });
    expect(JSON.stringify(second)).not.toContain("eu-west-1");
  });
});
