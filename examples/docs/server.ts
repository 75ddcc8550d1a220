/**
 * The server of the guides in `docs/`: one `MCPServer` with a plain tool, a tool that reports
 * progress and stops when cancelled, a tool with structured output, a tool whose questions are
 * declared with resolvers, a single-use tool, prompts with an arguments schema, a static resource,
 * resource templates (and a tool that edits a note and tells its listeners) and a middleware.
 * `examples/docs/docs.test.ts` runs it over Streamable HTTP on 127.0.0.1.
 */
import {
  elicit,
  elicitationRequest,
  inputRequired,
  MCPServer,
  outcome,
  type ResolverInput,
  readElicitation,
  resolver,
} from "tsmcp/server";
import { McpError } from "tsmcp/types";
import * as z from "zod";

/** The regions a database may live in. */
export const REGIONS = ["eu-west-1", "us-east-1"] as const;

const Provision = z.object({ name: z.string().min(1) });

// A resolver asks one question; its function sees the tool's validated arguments.
const region = resolver("region", ({ args }: ResolverInput<z.infer<typeof Provision>>) =>
  elicit(`Which region should ${args.name} live in?`, z.object({ region: z.enum(REGIONS) })),
);
// `needs` orders the questions: confirm is asked in the round after region is answered.
const confirm = resolver("confirm", { needs: { region } }, ({ args, needs }) =>
  elicit(`Create ${args.name} in ${needs.region.region}?`, z.object({ ok: z.boolean() })),
);
// A resolver may return a plain value instead of a question; it sees the request on `ctx`.
const requester = resolver("requester", ({ ctx }) => ctx.auth?.subject ?? ctx.clientInfo?.name ?? "someone");

// An answer that does not fit the schema (a reason under 10 characters) is asked again, the
// validation message appended to the question, up to `maxInvalidAnswerRetries` times.
const reason = resolver("reason", ({ args }: ResolverInput<{ project: string }>) =>
  elicit(`Why delete ${args.project}? (for the audit log)`, z.object({ reason: z.string().min(10) })),
);

/** What the `audit` middleware saw, in order: `method name`. */
export interface Audit {
  readonly calls: string[];
}

/** Builds the guides' server; `audit` receives one line per request. */
export function createDocsServer(audit: Audit = { calls: [] }): MCPServer {
  const mcp = new MCPServer("docs", { version: "1.0.0" });

  mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);

  mcp.tool(
    "import-rows",
    {
      description: "Imports rows, reporting progress.",
      inputSchema: z.object({ rows: z.number().int().min(1) }),
    },
    async ({ rows }, ctx) => {
      for (let row = 1; row <= rows; row++) {
        if (ctx.signal.aborted) return `Stopped after ${row - 1} rows`;
        ctx.sendProgress({ progress: row, total: rows, message: `row ${row}` });
      }
      return `Imported ${rows} rows for ${ctx.auth?.subject ?? "an anonymous caller"}`;
    },
  );

  mcp.tool(
    "add",
    {
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    ({ a, b }) => ({ sum: a + b }),
  );

  mcp.tool(
    "provision",
    { inputSchema: Provision, resolve: { region, confirm: outcome(confirm), requester } },
    async ({ name }, ctx) => {
      const { region, confirm, requester } = ctx.resolved;
      return confirm.status === "accepted" && confirm.content.ok
        ? `Provisioned ${name} in ${region.region} for ${requester}`
        : `Not provisioned: ${name} was not confirmed`;
    },
  );

  // Single-use: each sealed requestState of this tool opens once, so a replayed final round is
  // refused with -32602 instead of deleting twice.
  mcp.tool(
    "delete-project",
    { inputSchema: z.object({ project: z.string() }), resolve: { reason }, singleUse: true },
    async ({ project }, ctx) => `Deleted ${project} (${ctx.resolved.reason.reason})`,
  );

  mcp.prompt(
    "briefing",
    {
      description: "A status briefing for one team.",
      argsSchema: z.object({
        team: z.string().describe("The team the briefing is for"),
        tone: z.enum(["plain", "upbeat"]).optional(),
      }),
      complete: {
        team: (value) => ["billing", "search", "storage"].filter((team) => team.startsWith(value)),
      },
    },
    ({ team, tone }) => `Write a ${tone ?? "plain"} status briefing for the ${team} team.`,
  );

  const ASK_FOCUS = elicitationRequest({
    message: "What should the review focus on?",
    requestedSchema: { type: "object", properties: { focus: { type: "string" } }, required: ["focus"] },
  });
  mcp.prompt("review", { description: "A code review prompt; asks what to focus on." }, (_args, ctx) => {
    const answer = readElicitation(ctx.inputResponses?.focus, z.object({ focus: z.string().min(1) }));
    if (answer.status === "missing" || answer.status === "invalid") {
      return inputRequired({ inputRequests: { focus: ASK_FOCUS } });
    }
    const focus = answer.status === "accepted" ? answer.content.focus : "correctness";
    return [{ role: "user", content: { type: "text", text: `Review this change for ${focus}.` } }];
  });

  mcp.resource("docs://readme", { mimeType: "text/markdown" }, () => "# Notes\n\nOne note per id.");

  const notes = new Map([
    ["1", "Buy milk"],
    ["2", "Ship the release"],
  ]);
  mcp.resource(
    "notes://{id}",
    {
      mimeType: "text/plain",
      list: () => [...notes.keys()].map((id) => ({ uri: `notes://${id}`, name: `Note ${id}` })),
      complete: { id: (value) => [...notes.keys()].filter((id) => id.startsWith(value)) },
    },
    ({ id }) => notes.get(id), // undefined: the client gets -32602 with data.uri
  );

  mcp.tool("quote-note", { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
    const read = await ctx.readResource(`notes://${id}`);
    const first = read.contents[0];
    return first !== undefined && "text" in first ? `"${first.text}"` : "(empty)";
  });

  // Tells whoever listens for the note (`client.listen`, in either era) that it changed.
  mcp.tool("edit-note", { inputSchema: z.object({ id: z.string(), text: z.string() }) }, ({ id, text }) => {
    notes.set(id, text);
    mcp.notifyResourceUpdated(`notes://${id}`);
    return "saved";
  });

  mcp.use(async (request, next) => {
    const name = (request.params as { name?: unknown }).name;
    audit.calls.push(typeof name === "string" ? `${request.method} ${name}` : request.method);
    if (request.method === "tools/call" && name === "forbidden") {
      throw new McpError(-32602, "This tool is switched off");
    }
    return next(request);
  });

  return mcp;
}
