/**
 * A deployment tool that declares what it needs instead of driving its own rounds. It needs three
 * answers only the user has: the target environment, an approval that names that environment (so
 * it can only be asked once the environment is known), and release notes (independent of both).
 * The framework asks the environment and the notes together, then the approval, then runs the
 * handler, which reads the answers on `ctx.resolved`: the call completes in exactly two retries,
 * and no question is asked twice.
 *
 * Run it: `npm run example -- deploy [service] [version] [environment]` (serves Streamable HTTP on
 * 127.0.0.1, runs a client against it that answers from the command line, prints each round), or
 * `npm run example -- deploy --stdio` to serve it over stdio to a client of your own (for instance
 * `npx tsmcp call "npm run -s example -- deploy --stdio" deploy service=billing version=2.4.0`).
 */
import { Client, type ElicitationCallback } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { elicit, MCPServer, outcome, type ResolverInput, resolver } from "tsmcp/server";
import { serveStdio } from "tsmcp/stdio";
import * as z from "zod";

/** Where a service can be deployed. */
export const ENVIRONMENTS = ["staging", "production"] as const;

/** The arguments of the `deploy` tool. */
export const DeployArgs = z.object({
  service: z.string().min(1).describe("The service to deploy"),
  version: z.string().min(1).describe("The version to deploy"),
});
type Deploy = z.infer<typeof DeployArgs>;

/** Asks where to deploy. */
export const environment = resolver("environment", ({ args }: ResolverInput<Deploy>) =>
  elicit(
    `Where should ${args.service} ${args.version} be deployed?`,
    z.object({ environment: z.enum(ENVIRONMENTS) }),
  ),
);

/** Asks for approval, naming the environment: it needs `environment`'s answer first. */
export const approval = resolver("approval", { needs: { environment } }, ({ args, needs }) =>
  elicit(
    `Deploy ${args.service} ${args.version} to ${needs.environment.environment}?`,
    z.object({ approve: z.boolean() }),
  ),
);

/** Asks for release notes; independent of the other two, so it goes out with the first question. */
export const notes = resolver("notes", ({ args }: ResolverInput<Deploy>) =>
  elicit(`Release notes for ${args.service} ${args.version}?`, z.object({ notes: z.string().max(500) })),
);

/** Builds the deployment server. */
export function createDeployServer(): MCPServer {
  const mcp = new MCPServer("deployer", {
    version: "1.0.0",
    instructions: "Deploys services. Give the service and version; the server asks the user the rest.",
  });
  mcp.tool(
    "deploy",
    {
      description: "Deploy a service; asks where to, for approval, and for release notes.",
      inputSchema: DeployArgs,
      resolve: { environment, approval: outcome(approval), notes },
    },
    async ({ service, version }, ctx) => {
      const { environment, approval, notes } = ctx.resolved;
      if (approval.status !== "accepted" || !approval.content.approve) {
        return `Not deployed: ${service} ${version} was not approved for ${environment.environment}.`;
      }
      return `Deployed ${service} ${version} to ${environment.environment}. Notes: ${notes.notes}`;
    },
  );
  return mcp;
}

/** A user who answers every deploy question at once: `environment`, approval, and fixed notes. */
export function scriptedUser(target: (typeof ENVIRONMENTS)[number]): ElicitationCallback {
  return (params, context) => {
    const content: Record<string, string | boolean> =
      context.key === "environment"
        ? { environment: target }
        : context.key === "approval"
          ? { approve: true }
          : { notes: "Faster checkout." };
    console.log(`round ${context.round} · ${context.key}: ${params.message} -> ${JSON.stringify(content)}`);
    return { action: "accept", content };
  };
}

/**
 * Serves the deployment server on a free port, deploys through a client over HTTP, prints each
 * round; with `--stdio`, serves the deployment server over stdio until stdin ends instead.
 */
export async function main(args: string[] = []): Promise<void> {
  if (args.includes("--stdio")) {
    const mcp = createDeployServer();
    await serveStdio(mcp).closed;
    return;
  }
  const [service = "billing", version = "2.4.0", target = "staging"] = args;
  if (!(ENVIRONMENTS as readonly string[]).includes(target)) {
    throw new TypeError(`environment must be one of ${ENVIRONMENTS.join(", ")}, got ${target}`);
  }
  const mcp = createDeployServer();
  const server = await serve(mcp, { host: "127.0.0.1", port: 0 });
  console.log(`deployer listening on ${server.url}`);
  try {
    const client = await Client.connect(server.url, {
      elicitationCallback: scriptedUser(target as (typeof ENVIRONMENTS)[number]),
    });
    try {
      const result = await client.callTool("deploy", { service, version });
      for (const block of result.content) if (block.type === "text") console.log(block.text);
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
    mcp.close();
  }
}
