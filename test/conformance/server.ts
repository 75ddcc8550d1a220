/**
 * The conformance everything-server: every fixture the official suite calls (the table in
 * `reference/conformance.md`), on one Streamable HTTP endpoint, `http://127.0.0.1:$PORT/mcp`
 * (PORT default 3000). `requestState` is sealed by the requestState boundary, so a tampered token
 * is refused. Run: `PORT=3000 npm run conformance:server`.
 */
import {
  inputRequired,
  type RequestContext,
  RequestStateSecurity,
  requestStateBoundary,
  Server,
} from "tsmcp/server";
import { serve } from "tsmcp/transport";
import {
  type CallToolRequestParams,
  type CallToolResult,
  type ClientCapabilities,
  type GetPromptRequestParams,
  type GetPromptResult,
  type InputRequests,
  type InputRequiredResult,
  McpError,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from "tsmcp/types";
import {
  ASK_CONFIRM,
  ASK_ROOTS,
  ASK_WITH_DEFAULTS,
  ASK_WITH_ENUMS,
  accepted,
  answerOf,
  askModel,
  askString,
  describeElicitation,
  JSON_SCHEMA_2020_12_INPUT,
  RED_PIXEL_PNG,
  SILENT_WAV,
  sleep,
  text,
} from "./fixtures.js";

type ToolOutcome = CallToolResult | InputRequiredResult;
type ToolBody = (ctx: RequestContext, params: CallToolRequestParams) => ToolOutcome | Promise<ToolOutcome>;

interface FixtureTool extends Tool {
  readonly run: ToolBody;
}

const NO_ARGS: Tool["inputSchema"] = { type: "object", additionalProperties: false };

function result(...content: CallToolResult["content"]): CallToolResult {
  return { content };
}

/** -32021 unless the request declared `capability` (the server MUST NOT rely on undeclared ones). */
function requireCapability(ctx: RequestContext, capability: keyof ClientCapabilities & string): void {
  if (ctx.clientCapabilities[capability] === undefined) {
    throw McpError.of(
      "MISSING_REQUIRED_CLIENT_CAPABILITY",
      `This request needs the client capability "${capability}"`,
      { requiredCapabilities: { [capability]: {} } },
    );
  }
}

function stringArg(params: CallToolRequestParams, name: string, fallback: string): string {
  const value = params.arguments?.[name];
  return typeof value === "string" ? value : fallback;
}

const TOOLS: FixtureTool[] = [];
function tool(name: string, description: string, inputSchema: Tool["inputSchema"], run: ToolBody): void {
  TOOLS.push({ name, description, inputSchema, run });
}

// ---------------------------------------------------------------- tools-call-*

tool("test_simple_text", "Returns simple text", NO_ARGS, () =>
  result(text("This is a simple text response for testing.")),
);
tool("test_image_content", "Returns an image", NO_ARGS, () =>
  result({ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }),
);
tool("test_audio_content", "Returns audio", NO_ARGS, () =>
  result({ type: "audio", data: SILENT_WAV, mimeType: "audio/wav" }),
);
tool("test_embedded_resource", "Returns an embedded resource", NO_ARGS, () =>
  result({
    type: "resource",
    resource: {
      uri: "test://embedded-resource",
      mimeType: "text/plain",
      text: "This is an embedded resource content.",
    },
  }),
);
tool("test_multiple_content_types", "Returns text, an image and a resource", NO_ARGS, () =>
  result(
    text("Multiple content types test:"),
    { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
    {
      type: "resource",
      resource: {
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      },
    },
  ),
);
tool("test_error_handling", "Always fails with a tool error", NO_ARGS, () => ({
  isError: true,
  content: [text("This tool intentionally returns an error for testing")],
}));
tool("test_tool_with_progress", "Reports progress 0, 50, 100 of 100", NO_ARGS, async (ctx) => {
  ctx.sendProgress({ progress: 0, total: 100 });
  await sleep(50, ctx.signal);
  ctx.sendProgress({ progress: 50, total: 100 });
  await sleep(50, ctx.signal);
  ctx.sendProgress({ progress: 100, total: 100 });
  return result(text("Progress reported: 0, 50, 100 of 100"));
});
tool("test_tool_with_logging", "Logs three messages at info level", NO_ARGS, async (ctx) => {
  ctx.log("info", "Tool execution started");
  await sleep(50, ctx.signal);
  ctx.log("info", "Tool processing data");
  await sleep(50, ctx.signal);
  ctx.log("info", "Tool execution completed");
  return result(text("Logged three messages"));
});
tool(
  "test_sampling",
  "Asks the client's model to answer a prompt",
  { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
  (ctx, params) => {
    const answer = answerOf(params.inputResponses, "completion") as
      | { content?: { text?: unknown } }
      | undefined;
    if (answer === undefined) {
      requireCapability(ctx, "sampling");
      return inputRequired({ inputRequests: { completion: askModel(stringArg(params, "prompt", "Hello")) } });
    }
    return result(text(`LLM response: ${String(answer.content?.text ?? "")}`));
  },
);
tool(
  "test_elicitation",
  "Asks the user for a username and an email address",
  { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  (ctx, params) => {
    if (answerOf(params.inputResponses, "user_info") === undefined) {
      requireCapability(ctx, "elicitation");
      return inputRequired({
        inputRequests: {
          user_info: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: stringArg(params, "message", "Please provide your information"),
              requestedSchema: {
                type: "object",
                properties: {
                  username: { type: "string", description: "User's response" },
                  email: { type: "string", description: "User's email address" },
                },
                required: ["username", "email"],
              },
            },
          },
        },
      });
    }
    return result(text(`User response: ${describeElicitation(params.inputResponses, "user_info")}`));
  },
);
tool(
  "test_elicitation_sep1034_defaults",
  "Asks a form with defaults for every type",
  NO_ARGS,
  (ctx, params) => {
    if (answerOf(params.inputResponses, "defaults") === undefined) {
      requireCapability(ctx, "elicitation");
      return inputRequired({ inputRequests: { defaults: ASK_WITH_DEFAULTS } });
    }
    return result(text(`Elicitation completed: ${describeElicitation(params.inputResponses, "defaults")}`));
  },
);
tool("test_elicitation_sep1330_enums", "Asks a form with every enum variant", NO_ARGS, (ctx, params) => {
  if (answerOf(params.inputResponses, "enums") === undefined) {
    requireCapability(ctx, "elicitation");
    return inputRequired({ inputRequests: { enums: ASK_WITH_ENUMS } });
  }
  return result(text(`Elicitation completed: ${describeElicitation(params.inputResponses, "enums")}`));
});
tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", JSON_SCHEMA_2020_12_INPUT, () =>
  result(text("ok")),
);

// ---------------------------------------------------------------- input-required-result-*

const ASK_NAME = askString("What is your name?", "name");

tool("test_input_required_result_elicitation", "Asks for the user's name", NO_ARGS, (ctx, params) => {
  const answer = accepted(params.inputResponses, "user_name");
  if (answerOf(params.inputResponses, "user_name") === undefined) {
    requireCapability(ctx, "elicitation");
    return inputRequired({ inputRequests: { user_name: ASK_NAME } });
  }
  return result(text(answer === undefined ? "The user declined." : `Hello, ${String(answer.name)}!`));
});
tool("test_input_required_result_sampling", "Asks the client's model a question", NO_ARGS, (ctx, params) => {
  const answer = answerOf(params.inputResponses, "capital_question") as
    | { content?: { text?: unknown } }
    | undefined;
  if (answer === undefined) {
    requireCapability(ctx, "sampling");
    return inputRequired({ inputRequests: { capital_question: askModel("What is the capital of France?") } });
  }
  return result(text(`The model said: ${String(answer.content?.text ?? "")}`));
});
tool("test_input_required_result_list_roots", "Asks for the client's roots", NO_ARGS, (ctx, params) => {
  const answer = answerOf(params.inputResponses, "client_roots") as { roots?: { uri: string }[] } | undefined;
  if (answer === undefined) {
    requireCapability(ctx, "roots");
    return inputRequired({ inputRequests: { client_roots: ASK_ROOTS } });
  }
  const uris = (answer.roots ?? []).map((root) => root.uri);
  return result(text(`Roots: ${uris.join(", ") || "(none)"}`));
});
tool("test_input_required_result_request_state", "Round-trips requestState", NO_ARGS, (ctx, params) => {
  if (params.requestState === "state-v1" && answerOf(params.inputResponses, "confirm") !== undefined) {
    return result(text("state-ok: the echoed requestState verified"));
  }
  requireCapability(ctx, "elicitation");
  return inputRequired({ inputRequests: { confirm: ASK_CONFIRM }, requestState: "state-v1" });
});
tool(
  "test_input_required_result_multiple_inputs",
  "Asks three kinds of input at once",
  NO_ARGS,
  (ctx, params) => {
    const keys = ["user_name", "greeting", "client_roots"];
    if (
      params.requestState === "multi-v1" &&
      keys.every((k) => answerOf(params.inputResponses, k) !== undefined)
    ) {
      const name = accepted(params.inputResponses, "user_name")?.name;
      return result(text(`All three inputs received (name: ${String(name)})`));
    }
    requireCapability(ctx, "elicitation");
    requireCapability(ctx, "sampling");
    requireCapability(ctx, "roots");
    return inputRequired({
      inputRequests: {
        user_name: ASK_NAME,
        greeting: askModel("Generate a greeting", 50),
        client_roots: ASK_ROOTS,
      },
      requestState: "multi-v1",
    });
  },
);
tool("test_input_required_result_multi_round", "Asks two questions in two rounds", NO_ARGS, (ctx, params) => {
  const state = params.requestState;
  if (state?.startsWith("round-2:") && answerOf(params.inputResponses, "step2") !== undefined) {
    const color = accepted(params.inputResponses, "step2")?.color;
    return result(text(`Hello ${state.slice("round-2:".length)}, your favorite color is ${String(color)}.`));
  }
  requireCapability(ctx, "elicitation");
  if (state === "round-1" && answerOf(params.inputResponses, "step1") !== undefined) {
    const name = String(accepted(params.inputResponses, "step1")?.name ?? "friend");
    return inputRequired({
      inputRequests: { step2: askString("Step 2: What is your favorite color?", "color") },
      requestState: `round-2:${name}`,
    });
  }
  return inputRequired({
    inputRequests: { step1: askString("Step 1: What is your name?", "name") },
    requestState: "round-1",
  });
});
tool(
  "test_input_required_result_tampered_state",
  "Refuses a requestState that was altered",
  NO_ARGS,
  (ctx, params) => {
    if (params.requestState === "integrity-v1" && answerOf(params.inputResponses, "confirm") !== undefined) {
      return result(text("The sealed requestState verified."));
    }
    requireCapability(ctx, "elicitation");
    return inputRequired({ inputRequests: { confirm: ASK_CONFIRM }, requestState: "integrity-v1" });
  },
);
tool(
  "test_input_required_result_capabilities",
  "Asks only for what the client declared",
  NO_ARGS,
  (ctx, params) => {
    if (params.inputResponses !== undefined && Object.keys(params.inputResponses).length > 0) {
      return result(text(`Received: ${Object.keys(params.inputResponses).sort().join(", ")}`));
    }
    const declared = ctx.clientCapabilities;
    const requests: InputRequests = {};
    if (declared.elicitation !== undefined) requests.user_name = ASK_NAME;
    if (declared.sampling !== undefined) requests.greeting = askModel("Generate a greeting", 50);
    if (declared.roots !== undefined) requests.client_roots = ASK_ROOTS;
    if (Object.keys(requests).length === 0) return result(text("The client declared no input capability."));
    return inputRequired({ inputRequests: requests });
  },
);

// ---------------------------------------------------------------- server-stateless

tool("test_missing_capability", "Needs the sampling capability", NO_ARGS, (ctx) => {
  requireCapability(ctx, "sampling");
  return result(text("sampling is declared"));
});
tool("test_streaming_elicitation", "Asks for input with an elicitation", NO_ARGS, (ctx, params) => {
  if (answerOf(params.inputResponses, "confirm") !== undefined) return result(text("Confirmed."));
  requireCapability(ctx, "elicitation");
  return inputRequired({ inputRequests: { confirm: ASK_NAME } });
});
tool("test_logging_tool", "Logs at info level when the request opts in", NO_ARGS, (ctx) => {
  ctx.log("info", "Tool execution started");
  ctx.log("info", "Tool processing data");
  ctx.log("info", "Tool execution completed");
  return result(text("Logged three messages"));
});
tool("test_trigger_tool_change", "Publishes tools/list_changed", NO_ARGS, () => {
  server.notifyListChanged("tools");
  return result(text("tools/list_changed published"));
});
tool("test_trigger_prompt_change", "Publishes prompts/list_changed", NO_ARGS, () => {
  server.notifyListChanged("prompts");
  return result(text("prompts/list_changed published"));
});

// ---------------------------------------------------------------- tasks-* (extension not implemented)

tool(
  "greet",
  "Greets someone (synchronous)",
  { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  (_ctx, params) => result(text(`Hello, ${stringArg(params, "name", "World")}!`)),
);
tool(
  "slow_compute",
  "Sleeps up to two seconds, then answers (a task-supporting tool once tasks exist)",
  { type: "object", properties: { seconds: { type: "number" }, label: { type: "string" } } },
  async (ctx, params) => {
    const seconds = Number(params.arguments?.seconds ?? 0);
    await sleep(Math.min(Math.max(seconds, 0), 2) * 1000, ctx.signal);
    return result(text(`Computed ${stringArg(params, "label", "result")} after ${seconds} s`));
  },
);
tool("failing_job", "Always reports a tool error", NO_ARGS, () => ({
  isError: true,
  content: [text("The job failed.")],
}));
tool(
  "confirm_delete",
  "Asks before deleting a file",
  { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
  (ctx, params) => {
    const file = stringArg(params, "filename", "file");
    if (answerOf(params.inputResponses, "confirm") === undefined) {
      requireCapability(ctx, "elicitation");
      return inputRequired({ inputRequests: { confirm: askString(`Delete ${file}? Type yes.`, "answer") } });
    }
    return result(text(`${file}: ${describeElicitation(params.inputResponses, "confirm")}`));
  },
);
tool("multi_input", "Asks two questions at once", NO_ARGS, (ctx, params) => {
  if (
    answerOf(params.inputResponses, "first") !== undefined &&
    answerOf(params.inputResponses, "second") !== undefined
  ) {
    return result(text("Both answers received."));
  }
  requireCapability(ctx, "elicitation");
  return inputRequired({
    inputRequests: { first: askString("First?", "value"), second: askString("Second?", "value") },
  });
});
tool("test_tool_with_task", "Answers at once (a task-supporting tool once tasks exist)", NO_ARGS, () =>
  result(text("Done without a task.")),
);

// ---------------------------------------------------------------- prompts

const ASK_CONTEXT = askString("What context should the prompt use?", "context");

const PROMPTS: Prompt[] = [
  { name: "test_simple_prompt", description: "A simple prompt without arguments" },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt with two required arguments",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt embedding a resource",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", description: "A prompt with an image" },
  { name: "test_input_required_result_prompt", description: "A prompt that asks for context first" },
];

function promptArg(params: GetPromptRequestParams, name: string): string {
  const value = params.arguments?.[name];
  if (typeof value !== "string") {
    throw McpError.of("INVALID_PARAMS", `Missing required argument "${name}" of prompt ${params.name}`);
  }
  return value;
}

function getPrompt(
  ctx: RequestContext,
  params: GetPromptRequestParams,
): GetPromptResult | InputRequiredResult {
  switch (params.name) {
    case "test_simple_prompt":
      return { messages: [{ role: "user", content: text("This is a simple prompt for testing.") }] };
    case "test_prompt_with_arguments": {
      const arg1 = promptArg(params, "arg1");
      const arg2 = promptArg(params, "arg2");
      return {
        messages: [{ role: "user", content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
      };
    }
    case "test_prompt_with_embedded_resource":
      return {
        messages: [
          {
            role: "user",
            content: {
              type: "resource",
              resource: {
                uri: promptArg(params, "resourceUri"),
                mimeType: "text/plain",
                text: "Embedded resource content for testing.",
              },
            },
          },
          { role: "user", content: text("Please process the embedded resource above.") },
        ],
      };
    case "test_prompt_with_image":
      return {
        messages: [
          { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
          { role: "user", content: text("Please analyze the image above.") },
        ],
      };
    case "test_input_required_result_prompt": {
      const context = accepted(params.inputResponses, "user_context")?.context;
      if (answerOf(params.inputResponses, "user_context") === undefined) {
        requireCapability(ctx, "elicitation");
        return inputRequired({ inputRequests: { user_context: ASK_CONTEXT } });
      }
      return {
        messages: [{ role: "user", content: text(`Use this context: ${String(context ?? "(none)")}`) }],
      };
    }
    default:
      throw McpError.of("INVALID_PARAMS", `Unknown prompt: ${params.name}`);
  }
}

// ---------------------------------------------------------------- resources

const RESOURCES: Resource[] = [
  {
    uri: "test://static-text",
    name: "static-text",
    description: "A static text resource",
    mimeType: "text/plain",
  },
  {
    uri: "test://static-binary",
    name: "static-binary",
    description: "A static binary resource (a PNG)",
    mimeType: "image/png",
  },
  {
    uri: "test://watched-resource",
    name: "watched-resource",
    description: "A resource that can be watched with subscriptions/listen",
    mimeType: "text/plain",
  },
];

const TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: "test://template/{id}/data",
    name: "template-data",
    description: "Data for one id",
    mimeType: "application/json",
  },
];

const TEMPLATE_URI = /^test:\/\/template\/([^/?#]+)\/data$/;

function readResource(uri: string): ReadResourceResult {
  switch (uri) {
    case "test://static-text":
      return {
        contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }],
      };
    case "test://static-binary":
      return { contents: [{ uri, mimeType: "image/png", blob: RED_PIXEL_PNG }] };
    case "test://watched-resource":
      return { contents: [{ uri, mimeType: "text/plain", text: "Watched resource content." }] };
  }
  const match = TEMPLATE_URI.exec(uri);
  if (match !== null) {
    const id = decodeURIComponent(match[1] as string);
    return {
      contents: [
        {
          uri,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    };
  }
  throw McpError.of("INVALID_PARAMS", "Resource not found", { uri });
}

// ---------------------------------------------------------------- completion

const COMPLETIONS: Record<string, readonly string[]> = {
  arg1: ["paris", "park", "party"],
  arg2: ["world", "wonder", "work"],
  id: ["1", "2", "3", "123"],
};

// ---------------------------------------------------------------- the server

const toolsByName = new Map(TOOLS.map((t) => [t.name, t]));

const server: Server = new Server("tsmcp-conformance", {
  version: "0.1.0",
  onListTools: () => ({ tools: TOOLS.map(({ run: _run, ...definition }) => definition) }),
  onCallTool: (ctx, params) => {
    const fixture = toolsByName.get(params.name);
    if (fixture === undefined) throw McpError.of("INVALID_PARAMS", `Unknown tool: ${params.name}`);
    return fixture.run(ctx, params);
  },
  onListPrompts: () => ({ prompts: PROMPTS }),
  onGetPrompt: getPrompt,
  onListResources: () => ({ resources: RESOURCES }),
  onListResourceTemplates: () => ({ resourceTemplates: TEMPLATES }),
  onReadResource: (_ctx, params) => readResource(params.uri),
  onComplete: (_ctx, params) => {
    const { ref, argument } = params;
    const known =
      (ref.type === "ref/prompt" && ref.name === "test_prompt_with_arguments") ||
      (ref.type === "ref/resource" && ref.uri === "test://template/{id}/data");
    if (!known) throw McpError.of("INVALID_PARAMS", "Unknown completion reference");
    const values = (COMPLETIONS[argument.name] ?? []).filter((v) => v.startsWith(argument.value));
    return { completion: { values: [...values], total: values.length, hasMore: false } };
  },
});
server.use(requestStateBoundary(RequestStateSecurity.ephemeral(), { defaultAudience: server.name }));

const handle = await serve(server, { host: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
console.log(`conformance server listening on ${handle.url}`);
