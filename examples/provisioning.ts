/**
 * A low-level provisioning server. Its `provision` tool needs to know which region a new database
 * should live in, and only the user knows: the first call answers with an `InputRequiredResult`
 * carrying an elicitation, and the retry carries the answer. Its `briefing` prompt asks who the
 * briefing is for the same way.
 *
 * Run it: `npm run example -- provisioning` (serves Streamable HTTP on 127.0.0.1:$PORT/mcp, default
 * port 3000), or `npm run example -- provisioning --stdio` (serves stdio).
 */
import { serve } from "tsmcp/node";
import { elicitationRequest, inputRequired, Server } from "tsmcp/server";
import { serveStdio } from "tsmcp/stdio";
import type { ElicitResult, InputResponses } from "tsmcp/types";

/** The regions a database may live in. */
export const REGIONS: readonly string[] = ["eu-west-1", "us-east-1", "ap-south-1"];

/** The question the `provision` tool asks. */
export const ASK_REGION = elicitationRequest({
  message: "Which region should the database live in?",
  requestedSchema: {
    type: "object",
    properties: {
      region: { type: "string", enum: [...REGIONS], default: "eu-west-1" },
    },
    required: ["region"],
  },
});

/** The question the `briefing` prompt asks. */
export const ASK_AUDIENCE = elicitationRequest({
  message: "Who is the briefing for?",
  requestedSchema: { type: "object", properties: { audience: { type: "string" } }, required: ["audience"] },
});

/** The accepted answer to `key`, if the client sent one: answers are untrusted input, check them. */
function acceptedString(
  responses: InputResponses | undefined,
  key: string,
  field: string,
): string | undefined {
  const answer = responses?.[key] as ElicitResult | undefined;
  if (answer?.action !== "accept") return undefined;
  const value = answer.content?.[field];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** True when the user declined or cancelled the question `key`: do not ask again. */
function refused(responses: InputResponses | undefined, key: string): boolean {
  const action = (responses?.[key] as ElicitResult | undefined)?.action;
  return action === "decline" || action === "cancel";
}

/** Builds the provisioning server. */
export function createProvisioningServer(): Server {
  return new Server("provisioning", {
    version: "1.0.0",
    instructions: "Provisions databases. Ask for the database name; the server asks the user for the region.",
    // The handlers return InputRequiredResults; a 2025-era client gets them asked over the back-channel.
    legacyInputRequired: "fulfil",
    onListTools: () => ({
      tools: [
        {
          name: "provision",
          description: "Provision a database; asks the user which region it should live in.",
          inputSchema: {
            type: "object",
            properties: { name: { type: "string", description: "The database name" } },
            required: ["name"],
          },
        },
      ],
    }),
    onCallTool: (_ctx, params) => {
      if (params.name !== "provision") {
        return { content: [{ type: "text", text: `Unknown tool: ${params.name}` }], isError: true };
      }
      const name = params.arguments?.name;
      if (typeof name !== "string" || name.length === 0) {
        return {
          content: [{ type: "text", text: "Argument 'name' must be a non-empty string" }],
          isError: true,
        };
      }
      if (refused(params.inputResponses, "region")) {
        return { content: [{ type: "text", text: "Not provisioned: no region was chosen" }] };
      }
      const region = acceptedString(params.inputResponses, "region", "region");
      if (region === undefined || !REGIONS.includes(region)) {
        return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "provision-v1" });
      }
      return { content: [{ type: "text", text: `Provisioned ${name} in ${region}` }] };
    },
    onListPrompts: () => ({
      prompts: [{ name: "briefing", description: "A status briefing; asks who it is for." }],
    }),
    onGetPrompt: (_ctx, params) => {
      // A user who declines or cancels is not asked again: the briefing is for no one in particular.
      const audience = refused(params.inputResponses, "audience")
        ? "the whole team"
        : acceptedString(params.inputResponses, "audience", "audience");
      if (audience === undefined) return inputRequired({ inputRequests: { audience: ASK_AUDIENCE } });
      return {
        description: `A briefing for ${audience}`,
        messages: [
          { role: "user", content: { type: "text", text: `Write a short status briefing for ${audience}.` } },
        ],
      };
    },
  });
}

/** Serves the provisioning server over Streamable HTTP (or stdio with `--stdio`) until stopped. */
export async function main(args: string[] = []): Promise<void> {
  if (args.includes("--stdio")) {
    await serveStdio(createProvisioningServer()).closed;
    return;
  }
  const port = Number(process.env.PORT ?? 3000);
  const server = createProvisioningServer();
  const handle = await serve(server, { host: "127.0.0.1", port });
  console.log(`provisioning server listening on ${handle.url}`);
  // A stop signal drains: requests in flight finish (up to drainTimeoutMs), then the process exits.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void handle.close().then(() => server.close()));
  }
}
