/**
 * The provisioning server of `provisioning.ts`, written with `MCPServer`. Its `provision` tool
 * needs to know which region a new database should live in, and only the user knows: the first call
 * answers with an `InputRequiredResult` carrying an elicitation, and the retry carries the answer.
 * Its `briefing` prompt asks who the briefing is for the same way, and its resources describe the
 * regions (`provisioning://regions`, and one region by `provisioning://regions/{region}`). Answers are untrusted input, so
 * both read them with `readElicitation`, which validates them against a schema; `provision` stops
 * when the user declines or cancels (asking again would only pester them). `MCPServer` seals
 * the `requestState` the tool hands out (`"provision-v1"` never reaches the wire in clear).
 *
 * Run it: `npm run example -- mcpserver-provisioning` (serves Streamable HTTP on
 * 127.0.0.1:$PORT/mcp, default port 3000), or `npm run example -- mcpserver-provisioning --stdio`.
 */
import { serve } from "tsmcp/node";
import { elicitationRequest, inputRequired, MCPServer, readElicitation } from "tsmcp/server";
import { serveStdio } from "tsmcp/stdio";
import * as z from "zod";

/** The regions a database may live in. */
export const REGIONS = ["eu-west-1", "us-east-1", "ap-south-1"] as const;

/** The question the `provision` tool asks. */
export const ASK_REGION = elicitationRequest({
  message: "Which region should the database live in?",
  requestedSchema: {
    type: "object",
    properties: { region: { type: "string", enum: [...REGIONS], default: "eu-west-1" } },
    required: ["region"],
  },
});

/** The question the `briefing` prompt asks. */
export const ASK_AUDIENCE = elicitationRequest({
  message: "Who is the briefing for?",
  requestedSchema: { type: "object", properties: { audience: { type: "string" } }, required: ["audience"] },
});

/** What an accepted answer to ASK_REGION must hold. */
const RegionAnswer = z.object({ region: z.enum(REGIONS) });

/** What an accepted answer to ASK_AUDIENCE must hold. */
const AudienceAnswer = z.object({ audience: z.string().min(1) });

/** Builds the provisioning server. */
export function createProvisioningServer(): MCPServer {
  const mcp = new MCPServer("provisioning", {
    version: "1.0.0",
    instructions: "Provisions databases. Ask for the database name; the server asks the user for the region.",
    // The handlers return InputRequiredResults; a 2025-era client gets them asked over the back-channel.
    legacyInputRequired: "fulfil",
  });

  mcp.tool(
    "provision",
    {
      description: "Provision a database; asks the user which region it should live in.",
      inputSchema: z.object({ name: z.string().min(1).describe("The database name") }),
    },
    async ({ name }, ctx) => {
      const answer = readElicitation(ctx.inputResponses?.region, RegionAnswer);
      if (answer.status === "declined" || answer.status === "cancelled") {
        return "Not provisioned: no region was chosen";
      }
      if (answer.status !== "accepted") {
        return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "provision-v1" });
      }
      return `Provisioned ${name} in ${answer.content.region}`;
    },
  );

  mcp.prompt("briefing", { description: "A status briefing; asks who it is for." }, async (_args, ctx) => {
    const answer = readElicitation(ctx.inputResponses?.audience, AudienceAnswer);
    // A user who declines or cancels is not asked again: the briefing is for no one in particular.
    const unaddressed = answer.status === "declined" || answer.status === "cancelled";
    if (!unaddressed && answer.status !== "accepted") {
      return inputRequired({ inputRequests: { audience: ASK_AUDIENCE } });
    }
    const audience = answer.status === "accepted" ? answer.content.audience : "the whole team";
    return {
      description: `A briefing for ${audience}`,
      messages: [
        { role: "user", content: { type: "text", text: `Write a short status briefing for ${audience}.` } },
      ],
    };
  });

  mcp.resource(
    "provisioning://regions",
    { name: "regions", description: "The regions a database may live in.", mimeType: "application/json" },
    () => JSON.stringify(REGIONS),
  );
  mcp.resource(
    "provisioning://regions/{region}",
    { name: "region", description: "One region.", mimeType: "text/plain" },
    ({ region }) =>
      (REGIONS as readonly string[]).includes(region) ? `${region}: accepts new databases` : undefined,
  );

  return mcp;
}

/** Serves the provisioning server over Streamable HTTP (or stdio with `--stdio`) until stopped. */
export async function main(args: string[] = []): Promise<void> {
  const mcp = createProvisioningServer();
  if (args.includes("--stdio")) {
    await serveStdio(mcp).closed;
    return;
  }
  const port = Number(process.env.PORT ?? 3000);
  const handle = await serve(mcp, { host: "127.0.0.1", port });
  console.log(`provisioning server listening on ${handle.url}`);
  // A stop signal drains: requests in flight finish (up to drainTimeoutMs), then the process exits.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void handle.close().then(() => mcp.close()));
  }
}
