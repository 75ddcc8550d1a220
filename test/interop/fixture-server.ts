/**
 * The server the interop suites talk to: one `MCPServer` with a plain tool, a progress tool, two
 * resolver tools (one question; two dependent questions), a prompt and a resource template. Every
 * official client connects to it unchanged, whatever era it speaks: a handshake-era client gets
 * the resolver questions as `elicitation/create` over the back-channel, a 2026-07-28 client as
 * `inputRequests` of an `InputRequiredResult`.
 *
 * Run over stdio (the stdio suites spawn it): `node --import tsx test/interop/fixture-server.ts`.
 */
import { pathToFileURL } from "node:url";
import { elicit, MCPServer, outcome, type ResolverInput, resolver } from "tsmcp/server";
import { serveStdio } from "tsmcp/stdio";
import * as z from "zod";
import { testRequestStateSecurity } from "../helpers/request-state.js";

/** The regions `pick_region` and `provision` offer. */
export const REGIONS = ["eu-west-1", "us-east-1"] as const;

const Provision = z.object({ name: z.string().min(1) });

/** One question: where the database lives. */
const region = resolver("region", ({ args }: ResolverInput<z.infer<typeof Provision>>) =>
  elicit(`Which region should ${args.name} live in?`, z.object({ region: z.enum(REGIONS) })),
);

/** A question that names the first answer, so it can only be asked after it. */
const confirm = resolver("confirm", { needs: { region } }, ({ args, needs }) =>
  elicit(`Create ${args.name} in ${needs.region.region}?`, z.object({ ok: z.boolean() })),
);

/** Builds the interop server. */
export function createInteropServer(): MCPServer {
  const mcp = new MCPServer("tsmcp-interop", {
    version: "1.0.0",
    instructions: "A fixture for the interop suites.",
    requestStateSecurity: testRequestStateSecurity(),
  });
  mcp.tool(
    "echo",
    { description: "Echoes its text", inputSchema: z.object({ text: z.string() }) },
    ({ text }) => `echo: ${text}`,
  );
  mcp.tool(
    "count",
    { description: "Reports progress 1, 2, 3 of 3", inputSchema: z.object({}) },
    async (_args, ctx) => {
      for (let progress = 1; progress <= 3; progress++) ctx.sendProgress({ progress, total: 3 });
      // The official clients handle a notification a microtask after they read it but a response at
      // once, so reports read together with the response would reach a handler already removed. On
      // a handshake-era session a ping round-trip lets the client handle the reports first.
      if (ctx.session !== undefined) await ctx.ping();
      return "counted to 3";
    },
  );
  mcp.tool(
    "pick_region",
    { description: "Asks the user for a region", inputSchema: Provision, resolve: { region } },
    ({ name }, ctx) => `${name} lives in ${ctx.resolved.region.region}`,
  );
  mcp.tool(
    "provision",
    {
      description: "Asks for a region, then for a confirmation naming it",
      inputSchema: Provision,
      resolve: { region, confirm: outcome(confirm) },
    },
    ({ name }, ctx) => {
      const { region, confirm } = ctx.resolved;
      return confirm.status === "accepted" && confirm.content.ok
        ? `Provisioned ${name} in ${region.region}`
        : `Not provisioned: ${name} was not confirmed`;
    },
  );
  // Await-style: creates once, asks two questions in turn; reports how often the creation ran for
  // this order id (once, whatever the era and however many rounds the call took).
  const creations = new Map<string, number>();
  mcp.tool(
    "order",
    {
      description: "Creates an order once, then asks for a region and a confirmation",
      inputSchema: Provision,
    },
    async ({ name }, ctx) => {
      await ctx.once("create", () => {
        creations.set(name, (creations.get(name) ?? 0) + 1);
      });
      const { region } = await ctx.ask(
        "region",
        elicit(`Which region should ${name} live in?`, z.object({ region: z.enum(REGIONS) })),
      );
      const { ok } = await ctx.ask(
        "confirm",
        elicit(`Create ${name} in ${region}?`, z.object({ ok: z.boolean() })),
      );
      return `${ok ? "Ordered" : "Dropped"} ${name} in ${region}, created ${creations.get(name)} time(s)`;
    },
  );
  mcp.prompt(
    "greeting",
    {
      description: "Greets someone",
      argsSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    ({ name }) => `Say hello to ${String(name)}.`,
  );
  mcp.resource("notes://{id}", { name: "note", mimeType: "text/plain" }, ({ id }) => `note ${id}`);
  return mcp;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await serveStdio(createInteropServer()).closed;
}
