/**
 * The MCP server every edge example serves: a `provision` tool whose arguments are a raw JSON
 * Schema (validated where code generation is forbidden too, see `jsonSchemaValidator`) and which
 * asks the user for the region with a declared elicitation. The question and the answer travel as
 * a multi round-trip request: the first call answers `input_required`, the client asks the user
 * and retries with the answer and the sealed `requestState`. Spec: basic/patterns/mrtr.
 *
 * `stateKey` seals `requestState`: on an edge platform each request may land on another isolate
 * or machine, so every instance needs the same key (32 random bytes or more; see
 * docs/deploying.md).
 */
import { elicit, MCPServer, RequestStateSecurity, resolver } from "tsmcp/server";

/** The form the `provision` tool asks: a region, from a fixed list. */
export const REGION_FORM = {
  type: "object",
  properties: { region: { type: "string", enum: ["eu-west-1", "us-east-1"] } },
  required: ["region"],
} as const;

/** Builds the server; `stateKey` is the shared requestState key. */
export function createEdgeServer(stateKey: string): MCPServer {
  const mcp = new MCPServer("edge-provisioning", {
    version: "1.0.0",
    requestStateSecurity: new RequestStateSecurity({ keys: [stateKey] }),
  });
  const region = resolver("region", ({ args }: { args: Record<string, unknown> }) =>
    elicit(`Which region should ${String(args.name)} live in?`, REGION_FORM),
  );
  mcp.tool(
    "provision",
    {
      description: "Provision a database; asks the user which region it should live in.",
      inputSchema: {
        type: "object",
        properties: { name: { type: "string", pattern: "^[a-z][a-z0-9-]{0,62}$" } },
        required: ["name"],
      },
      resolve: { region },
    },
    async (args, ctx) => `Provisioned ${String(args.name)} in ${String(ctx.resolved.region.region)}`,
  );
  return mcp;
}
