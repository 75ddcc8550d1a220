/**
 * The conformance everything-client: the official suite starts it once per client scenario, with
 * the mock server's URL as the LAST argument and the scenario in the environment:
 *
 * - `MCP_CONFORMANCE_SCENARIO`: which scenario (e.g. `http-custom-headers`);
 * - `MCP_CONFORMANCE_PROTOCOL_VERSION`: `2026-07-28` runs the stateless path (`server/discover`,
 *   per-request `_meta`); a 2025 revision (`2025-11-25`, `2025-06-18`, ...) connects with
 *   `protocolVersion: "legacy"`: the `initialize` handshake at 2025-11-25, a session, and the
 *   server's requests answered over the back-channel by the same callbacks. (The 2025 mock servers
 *   answer any unknown method with an empty result, so a `server/discover` probe would not tell.)
 *   Unset means 2026-07-28 (a run by hand);
 * - `MCP_CONFORMANCE_CONTEXT`: JSON with scenario input (the exact calls of `http-custom-headers`).
 *
 * Exits 0 when the scenario's flow completed as expected, 1 when it did not (the reason on stderr),
 * 2 on bad usage. Build: `npm run conformance:build`; run: `npm run conformance:client -- <url>`.
 */
import {
  Client,
  type ClientLogger,
  type ElicitationCallback,
  type ListRootsCallback,
  type SamplingCallback,
} from "tsmcp/client";
import { OAuthClientProvider } from "tsmcp/client/auth";
import { listSkills, loadSkill, SkillVerificationError, type SkillVerificationReason } from "tsmcp/skills";
import type { CallToolResult, Tool } from "tsmcp/types";
import { isAuthExtensionScenario, runAuthExtensionScenario } from "./auth-extensions.js";

/** What a scenario handler gets: the connected client and the scenario's context, if any. */
interface ScenarioRun {
  readonly url: string;
  readonly context: Record<string, unknown>;
}

type Handler = (run: ScenarioRun) => Promise<void>;

/** A scenario's flow did not go as expected. */
class ScenarioFailure extends Error {
  override readonly name = "ScenarioFailure";
}

const logger: ClientLogger = {
  warn: (message) => process.stderr.write(`[client] warn ${message}\n`),
};

function note(message: string): void {
  process.stderr.write(`[client] ${message}\n`);
}

/** A value for one property of an input schema: its default, else a plain value of its type. */
function sampleValue(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return "conformance";
  const s = schema as Record<string, unknown>;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return sampleArguments(s);
    default:
      return "conformance";
  }
}

/** Arguments that satisfy a tool's required properties. */
function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, sampleValue(properties[name])]));
}

/** Accepts every form with its defaults (or plain values); declines URL mode. */
const elicitationCallback: ElicitationCallback = (params) => {
  if (params.mode === "url") return { action: "decline" };
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [name, property] of Object.entries(params.requestedSchema.properties)) {
    content[name] = sampleValue(property) as string | number | boolean | string[];
  }
  return { action: "accept", content };
};

const samplingCallback: SamplingCallback = () => ({
  role: "assistant",
  content: { type: "text", text: "A reply from the conformance client." },
  model: "tsmcp-conformance",
});

const listRootsCallback: ListRootsCallback = () => ({
  roots: [{ uri: "file:///tmp/conformance", name: "conformance" }],
});

/** `"legacy"` for a 2025 revision, else the stateless 2026-07-28 path; set once in `main`. */
let era: "2026-07-28" | "legacy" = "2026-07-28";

/** The OAuth provider of an `auth/*` scenario; undefined for the others. Set once in `main`. */
let auth: OAuthClientProvider | undefined;

/**
 * The URL of this client's Client ID Metadata Document, as the suite expects it: offered to every
 * authorization server, used with those that advertise `client_id_metadata_document_supported`.
 */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** A loopback redirect URI nothing listens on: the user's step reads the redirect itself. */
const REDIRECT_URI = "http://127.0.0.1:3000/callback";

/**
 * The user's step, headless: the suite's authorization endpoint redirects at once, so a GET of the
 * authorization URL (the redirect not followed) answers with the callback URL in `Location`.
 */
async function followAuthorization(
  authorizationUrl: URL,
  { signal }: { signal: AbortSignal },
): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual", signal });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (location === null) {
    throw new ScenarioFailure(
      `the authorization endpoint answered HTTP ${response.status} without a redirect`,
    );
  }
  return new URL(location, authorizationUrl).href;
}

/** The provider for an `auth/*` scenario: pre-registered credentials when the context has some. */
function oauthProvider(context: Record<string, unknown>): OAuthClientProvider {
  const { client_id: clientId, client_secret: clientSecret, issuer } = context;
  return new OAuthClientProvider({
    redirectUri: REDIRECT_URI,
    redirect: followAuthorization,
    clientName: "tsmcp-conformance-client",
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(typeof clientId === "string"
      ? {
          client: {
            clientId,
            // The scenario names the authorization server its credentials belong to.
            ...(typeof clientSecret === "string" ? { clientSecret } : {}),
            ...(typeof issuer === "string" ? { issuer } : {}),
          },
        }
      : {}),
    logger,
  });
}

async function connect(url: string): Promise<Client> {
  return Client.connect(url, {
    ...(auth === undefined ? {} : { auth }),
    protocolVersion: era,
    clientInfo: { name: "tsmcp-conformance-client", version: "0.1.0" },
    elicitationCallback,
    samplingCallback,
    listRootsCallback,
    logger,
    timeoutMs: 20_000,
  });
}

async function withClient(url: string, body: (client: Client) => Promise<void>): Promise<void> {
  const client = await connect(url);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** Every tool of every page (each page goes through the x-mcp-header filter). */
async function allTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}

function expectText(result: CallToolResult, expected: string, tool: string): void {
  const text = textOf(result);
  if (!text.includes(expected)) {
    throw new ScenarioFailure(`${tool}: expected a result containing "${expected}", got "${text}"`);
  }
}

/** Lists the tools, then calls each one with arguments satisfying its schema. */
const callEveryTool: Handler = ({ url }) =>
  withClient(url, async (client) => {
    for (const tool of await allTools(client)) {
      const result = await client.callTool(tool.name, sampleArguments(tool.inputSchema));
      note(`${tool.name}: ${textOf(result)}`);
    }
  });

/** Lists the tools and does nothing else with them (the scenario watches what the listing does). */
const listOnly: Handler = ({ url }) =>
  withClient(url, async (client) => {
    const tools = await allTools(client);
    note(`listed ${tools.length} tool(s): ${tools.map((t) => t.name).join(", ")}`);
  });

/** Connects through OAuth, lists the tools and calls `test-tool` (which may need a wider scope). */
const authorizedFlow: Handler = ({ url }) =>
  withClient(url, async (client) => {
    const tools = await allTools(client);
    if (!tools.some((t) => t.name === "test-tool")) throw new ScenarioFailure("no test-tool listed");
    await client.callTool("test-tool", {});
  });

/** The suite's required `auth/*` scenarios (the extension grants are not among them). */
const AUTH_SCENARIOS = [
  "metadata-default",
  "metadata-var1",
  "metadata-var2",
  "metadata-var3",
  "basic-cimd",
  "scope-from-www-authenticate",
  "scope-from-scopes-supported",
  "scope-omitted-when-undefined",
  "scope-step-up",
  "scope-retry-limit",
  "token-endpoint-auth-basic",
  "token-endpoint-auth-post",
  "token-endpoint-auth-none",
  "pre-registration",
  "resource-mismatch",
  "offline-access-scope",
  "offline-access-not-supported",
  "authorization-server-migration",
  "iss-supported",
  "iss-not-advertised",
  "iss-supported-missing",
  "iss-wrong-issuer",
  "iss-unexpected",
  "iss-normalized",
  "metadata-issuer-mismatch",
];

const SCENARIOS: Record<string, Handler> = {
  /** The handshake itself: connect (initialize, initialized), list the tools, close. */
  initialize: listOnly,

  tools_call: ({ url }) =>
    withClient(url, async (client) => {
      const tools = await allTools(client);
      if (!tools.some((t) => t.name === "add_numbers"))
        throw new ScenarioFailure("no add_numbers tool listed");
      expectText(await client.callTool("add_numbers", { a: 5, b: 3 }), "8", "add_numbers");
    }),

  "request-metadata": listOnly,

  "sep-2322-client-request-state": ({ url }) =>
    withClient(url, async (client) => {
      await allTools(client);
      expectText(await client.callTool("test_mrtr_echo_state"), "echo-state-ok", "test_mrtr_echo_state");
      expectText(await client.callTool("test_mrtr_no_state"), "no-state-ok", "test_mrtr_no_state");
      expectText(await client.callTool("test_mrtr_unrelated"), "unrelated-ok", "test_mrtr_unrelated");
      expectText(
        await client.callTool("test_mrtr_no_result_type"),
        "no-result-type-test-ok",
        "test_mrtr_no_result_type",
      );
    }),

  "http-standard-headers": ({ url }) =>
    withClient(url, async (client) => {
      for (const tool of await allTools(client))
        await client.callTool(tool.name, sampleArguments(tool.inputSchema));
      for (const resource of (await client.listResources()).resources)
        await client.readResource(resource.uri);
      for (const prompt of (await client.listPrompts()).prompts) await client.getPrompt(prompt.name);
    }),

  "http-custom-headers": ({ url, context }) =>
    withClient(url, async (client) => {
      const calls = context.toolCalls;
      if (!Array.isArray(calls) || calls.length === 0) {
        throw new ScenarioFailure("MCP_CONFORMANCE_CONTEXT has no toolCalls");
      }
      const listed = new Set((await allTools(client)).map((t) => t.name));
      for (const call of calls as { name: string; arguments?: Record<string, unknown> }[]) {
        if (!listed.has(call.name)) throw new ScenarioFailure(`tool ${call.name} was not listed`);
        await client.callTool(call.name, call.arguments ?? {});
      }
    }),

  "http-invalid-tool-headers": callEveryTool,

  "json-schema-ref-no-deref": listOnly,

  /** The server's elicitation/create: the callback fills every field from its schema default. */
  "elicitation-sep1034-client-defaults": callEveryTool,

  /**
   * The server closes the tool call's SSE stream after a priming event that carries `retry`; the
   * transport waits that long and resumes with GET + `Last-Event-ID`, where the result arrives.
   */
  "sse-retry": ({ url }) =>
    withClient(url, async (client) => {
      await allTools(client);
      expectText(
        await client.callTool("test_reconnection"),
        "Reconnection test completed successfully",
        "test_reconnection",
      );
    }),

  /**
   * Every required `auth/*` scenario runs this flow against a protected mock server; the provider
   * authorizes on the first 401 (and steps up on a 403), and the scenario watches how.
   */
  ...Object.fromEntries(AUTH_SCENARIOS.map((name) => [`auth/${name}`, authorizedFlow])),

  /** Lists the skills and stops there: no skill is loaded, so no file may be read. */
  "sep-2640-client-no-prefetch": ({ url }) =>
    withClient(url, async (client) => {
      const listed = await listSkills(client);
      note(`listed ${listed.length} skill(s), loaded none`);
    }),

  /**
   * The mock serves a SKILL.md that fails one check against its entry: loading the skill must
   * refuse it for that reason, and the supporting file must not be read.
   */
  "sep-2640-client-verify-digest": loadRefused("digest"),
  "sep-2640-client-verify-size": loadRefused("size"),
  "sep-2640-client-verify-frontmatter": loadRefused("frontmatter"),

  "json-schema-2020-12-preservation": ({ url }) =>
    withClient(url, async (client) => {
      const tools = await allTools(client);
      const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
      if (focal === undefined) throw new ScenarioFailure("json_schema_2020_12_tool was not listed");
      await client.callTool("json_schema_echo", { schema: focal.inputSchema });
    }),
};

/**
 * Lists the skills and loads each as a host would: a skill whose SKILL.md verifies has its
 * supporting files read (each verified too); one that fails must fail with `expected`.
 */
function loadRefused(expected: SkillVerificationReason): Handler {
  return ({ url }) =>
    withClient(url, async (client) => {
      let refused = 0;
      for (const entry of await listSkills(client)) {
        try {
          const loaded = await loadSkill(client, entry);
          for (const file of loaded.files) if (file !== loaded.uri) await loaded.readFile(file);
        } catch (error) {
          if (!(error instanceof SkillVerificationError)) throw error;
          if (error.reason !== expected)
            throw new ScenarioFailure(`expected a ${expected} verification failure, got: ${error.message}`);
          note(`refused as expected: ${error.message}`);
          refused++;
        }
      }
      if (refused === 0) throw new ScenarioFailure(`no skill failed ${expected} verification`);
    });
}

/** Scenarios that need a capability tsmcp does not have yet, and which one. */
function missingCapability(scenario: string): string | undefined {
  if (scenario.startsWith("auth/") && SCENARIOS[scenario] === undefined)
    return "this OAuth grant (an authorization extension) is not implemented in tsmcp yet";
  return undefined;
}

function fail(message: string, code = 1): never {
  process.stderr.write(`[client] ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const url = process.argv.at(-1);
  if (process.argv.length < 3 || url === undefined || !/^https?:\/\//.test(url)) {
    fail("usage: client.js <server-url>  (MCP_CONFORMANCE_SCENARIO names the scenario)", 2);
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  if (scenario === undefined || scenario === "") fail("MCP_CONFORMANCE_SCENARIO is not set", 2);
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2026-07-28";
  if (version.startsWith("2025-") || version.startsWith("2024-")) era = "legacy";
  else if (version !== "2026-07-28")
    fail(`MCP_CONFORMANCE_PROTOCOL_VERSION ${version} is no known revision`, 2);
  if (isAuthExtensionScenario(scenario)) return runAuthExtensionScenario(scenario, url, era);
  const missing = missingCapability(scenario);
  if (missing !== undefined) fail(`scenario ${scenario}: ${missing}`);
  const handler = SCENARIOS[scenario];
  if (handler === undefined) fail(`scenario ${scenario}: no handler in the everything-client`);
  let context: Record<string, unknown> = {};
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (raw !== undefined && raw !== "") {
    try {
      context = JSON.parse(raw) as Record<string, unknown>;
    } catch (error) {
      fail(`MCP_CONFORMANCE_CONTEXT is not JSON: ${(error as Error).message}`, 2);
    }
  }
  if (scenario.startsWith("auth/")) auth = oauthProvider(context);
  await handler({ url, context });
  note(`scenario ${scenario}: done`);
}

main().then(
  () => process.exit(0),
  (error: unknown) =>
    fail(`failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`),
);
