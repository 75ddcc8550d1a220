/**
 * The tools of the conformance everything-server, registered on an `MCPServer`: the `tools-call-*`
 * content fixtures (the ones that ask the client something use the back-channel on a 2025-era
 * session, `inputRequests` at 2026-07-28), the `server-sse-polling` tool `test_reconnection`, the `input-required-result-*` multi-round-trip fixtures, the `server-stateless`
 * probes, the `http-custom-header-server-validation` tool (an `x-mcp-header` argument), and the
 * `tasks-*` tools of the tasks extension.
 * Handlers return plaintext `requestState`; the server seals it.
 */
import { type Context, inputRequired, type MCPServer } from "tsmcp/server";
import { type CallToolResult, type InputRequests, McpError } from "tsmcp/types";
import * as z from "zod";
import {
  ASK_CONFIRM,
  ASK_ROOTS,
  ASK_WITH_DEFAULTS,
  ASK_WITH_ENUMS,
  accepted,
  answerOf,
  askModel,
  askString,
  askUserInfo,
  describeElicitation,
  describeElicitResult,
  JSON_SCHEMA_2020_12_INPUT,
  RED_PIXEL_PNG,
  requireCapability,
  SILENT_WAV,
  sleep,
  text,
  textOf,
} from "./fixtures.js";

/** The text of a sampling answer under `key`, when there is one. */
function sampledText(ctx: Context, key: string): string | undefined {
  const answer = answerOf(ctx.inputResponses, key) as { content?: { text?: unknown } } | undefined;
  return answer === undefined ? undefined : String(answer.content?.text ?? "");
}

const ASK_NAME = askString("What is your name?", "name");

function contentFixtures(mcp: MCPServer): void {
  mcp.tool(
    "test_simple_text",
    { description: "Returns simple text" },
    () => "This is a simple text response for testing.",
  );
  mcp.tool("test_image_content", { description: "Returns an image" }, () => [
    { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
  ]);
  mcp.tool("test_audio_content", { description: "Returns audio" }, () => [
    { type: "audio", data: SILENT_WAV, mimeType: "audio/wav" },
  ]);
  mcp.tool("test_embedded_resource", { description: "Returns an embedded resource" }, () => [
    {
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    },
  ]);
  mcp.tool("test_multiple_content_types", { description: "Returns text, an image and a resource" }, () => [
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
  ]);
  mcp.tool(
    "test_error_handling",
    { description: "Always fails with a tool error" },
    (): CallToolResult => ({
      isError: true,
      content: [text("This tool intentionally returns an error for testing")],
    }),
  );
  mcp.tool(
    "test_tool_with_progress",
    { description: "Reports progress 0, 50, 100 of 100" },
    async (_args, ctx) => {
      ctx.sendProgress({ progress: 0, total: 100 });
      await sleep(50, ctx.signal);
      ctx.sendProgress({ progress: 50, total: 100 });
      await sleep(50, ctx.signal);
      ctx.sendProgress({ progress: 100, total: 100 });
      return "Progress reported: 0, 50, 100 of 100";
    },
  );
  mcp.tool(
    "test_tool_with_logging",
    { description: "Logs three messages at info level" },
    async (_args, ctx) => {
      ctx.log("info", "Tool execution started");
      await sleep(50, ctx.signal);
      ctx.log("info", "Tool processing data");
      await sleep(50, ctx.signal);
      ctx.log("info", "Tool execution completed");
      return "Logged three messages";
    },
  );
  mcp.tool(
    "test_sampling",
    {
      description: "Asks the client's model to answer a prompt",
      inputSchema: z.object({ prompt: z.string() }),
    },
    async ({ prompt }, ctx) => {
      if (ctx.session !== undefined) {
        const result = await ctx.createMessage(askModel(prompt).params);
        return `LLM response: ${textOf(result.content)}`;
      }
      const answer = sampledText(ctx, "completion");
      if (answer !== undefined) return `LLM response: ${answer}`;
      requireCapability(ctx, "sampling");
      return inputRequired({ inputRequests: { completion: askModel(prompt) } });
    },
  );
  mcp.tool(
    "test_elicitation",
    {
      description: "Asks the user for a username and an email address",
      inputSchema: z.object({ message: z.string() }),
    },
    async ({ message }, ctx) => {
      const ask = askUserInfo(message);
      if (ctx.session !== undefined) {
        return `User response: ${describeElicitResult(await ctx.elicit(ask.params))}`;
      }
      if (answerOf(ctx.inputResponses, "user_info") !== undefined) {
        return `User response: ${describeElicitation(ctx.inputResponses, "user_info")}`;
      }
      requireCapability(ctx, "elicitation");
      return inputRequired({ inputRequests: { user_info: ask } });
    },
  );
  for (const [name, key, ask] of [
    ["test_elicitation_sep1034_defaults", "defaults", ASK_WITH_DEFAULTS],
    ["test_elicitation_sep1330_enums", "enums", ASK_WITH_ENUMS],
  ] as const) {
    mcp.tool(name, { description: `Asks a form (${key})` }, async (_args, ctx) => {
      if (ctx.session !== undefined) {
        return `Elicitation completed: ${describeElicitResult(await ctx.elicit(ask.params))}`;
      }
      if (answerOf(ctx.inputResponses, key) !== undefined) {
        return `Elicitation completed: ${describeElicitation(ctx.inputResponses, key)}`;
      }
      requireCapability(ctx, "elicitation");
      return inputRequired({ inputRequests: { [key]: ask } });
    });
  }
  mcp.tool(
    "test_reconnection",
    { description: "Closes its SSE stream mid-call; the result arrives after the client reconnects" },
    async (_args, ctx) => {
      ctx.closeSseStream();
      await sleep(100, ctx.signal);
      return "The result arrived after the stream was closed.";
    },
  );
  mcp.tool(
    "json_schema_2020_12_tool",
    { description: "Tool with JSON Schema 2020-12 features", inputSchema: JSON_SCHEMA_2020_12_INPUT },
    () => "ok",
  );
}

function inputRequiredFixtures(mcp: MCPServer): void {
  mcp.tool(
    "test_input_required_result_elicitation",
    { description: "Asks for the user's name" },
    (_args, ctx) => {
      if (answerOf(ctx.inputResponses, "user_name") === undefined) {
        requireCapability(ctx, "elicitation");
        return inputRequired({ inputRequests: { user_name: ASK_NAME } });
      }
      const answer = accepted(ctx.inputResponses, "user_name");
      return answer === undefined ? "The user declined." : `Hello, ${String(answer.name)}!`;
    },
  );
  mcp.tool(
    "test_input_required_result_sampling",
    { description: "Asks the client's model a question" },
    (_args, ctx) => {
      const answer = sampledText(ctx, "capital_question");
      if (answer !== undefined) return `The model said: ${answer}`;
      requireCapability(ctx, "sampling");
      return inputRequired({
        inputRequests: { capital_question: askModel("What is the capital of France?") },
      });
    },
  );
  mcp.tool(
    "test_input_required_result_list_roots",
    { description: "Asks for the client's roots" },
    (_args, ctx) => {
      const answer = answerOf(ctx.inputResponses, "client_roots") as
        | { roots?: { uri: string }[] }
        | undefined;
      if (answer === undefined) {
        requireCapability(ctx, "roots");
        return inputRequired({ inputRequests: { client_roots: ASK_ROOTS } });
      }
      return `Roots: ${(answer.roots ?? []).map((root) => root.uri).join(", ") || "(none)"}`;
    },
  );
  mcp.tool(
    "test_input_required_result_request_state",
    { description: "Round-trips requestState" },
    (_args, ctx) => {
      if (ctx.requestState === "state-v1" && answerOf(ctx.inputResponses, "confirm") !== undefined) {
        return "state-ok: the echoed requestState verified";
      }
      requireCapability(ctx, "elicitation");
      return inputRequired({ inputRequests: { confirm: ASK_CONFIRM }, requestState: "state-v1" });
    },
  );
  mcp.tool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks three kinds of input at once" },
    (_args, ctx) => {
      const keys = ["user_name", "greeting", "client_roots"];
      if (
        ctx.requestState === "multi-v1" &&
        keys.every((k) => answerOf(ctx.inputResponses, k) !== undefined)
      ) {
        return `All three inputs received (name: ${String(accepted(ctx.inputResponses, "user_name")?.name)})`;
      }
      for (const capability of ["elicitation", "sampling", "roots"] as const)
        requireCapability(ctx, capability);
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
  mcp.tool(
    "test_input_required_result_multi_round",
    { description: "Asks two questions in two rounds" },
    (_args, ctx) => {
      const state = ctx.requestState;
      if (state?.startsWith("round-2:") && answerOf(ctx.inputResponses, "step2") !== undefined) {
        const color = accepted(ctx.inputResponses, "step2")?.color;
        return `Hello ${state.slice("round-2:".length)}, your favorite color is ${String(color)}.`;
      }
      requireCapability(ctx, "elicitation");
      if (state === "round-1" && answerOf(ctx.inputResponses, "step1") !== undefined) {
        const name = String(accepted(ctx.inputResponses, "step1")?.name ?? "friend");
        return inputRequired({
          inputRequests: { step2: askString("Step 2: What is your favorite color?", "color") },
          requestState: `round-2:${name}`,
        });
      }
      return inputRequired({
        inputRequests: { step1: askString("Step 1: What is your name?", "name") },
        requestState: "round-1",
      });
    },
  );
  mcp.tool(
    "test_input_required_result_tampered_state",
    { description: "Refuses a requestState that was altered (the server seals it)" },
    (_args, ctx) => {
      if (ctx.requestState === "integrity-v1" && answerOf(ctx.inputResponses, "confirm") !== undefined) {
        return "The sealed requestState verified.";
      }
      requireCapability(ctx, "elicitation");
      return inputRequired({ inputRequests: { confirm: ASK_CONFIRM }, requestState: "integrity-v1" });
    },
  );
  mcp.tool(
    "test_input_required_result_capabilities",
    { description: "Asks only for the kinds of input the client declared" },
    (_args, ctx) => {
      const answered = Object.keys(ctx.inputResponses ?? {});
      if (answered.length > 0) return `Received: ${answered.sort().join(", ")}`;
      const declared = ctx.clientCapabilities;
      const requests: InputRequests = {};
      if (declared.elicitation !== undefined) requests.user_name = ASK_NAME;
      if (declared.sampling !== undefined) requests.greeting = askModel("Generate a greeting", 50);
      if (declared.roots !== undefined) requests.client_roots = ASK_ROOTS;
      if (Object.keys(requests).length === 0) return "The client declared no input capability.";
      return inputRequired({ inputRequests: requests });
    },
  );
}

function statelessFixtures(mcp: MCPServer): void {
  mcp.tool("test_missing_capability", { description: "Needs the sampling capability" }, (_args, ctx) => {
    requireCapability(ctx, "sampling");
    return "sampling is declared";
  });
  mcp.tool(
    "test_streaming_elicitation",
    { description: "Asks for input with an elicitation" },
    (_args, ctx) => {
      if (answerOf(ctx.inputResponses, "confirm") !== undefined) return "Confirmed.";
      requireCapability(ctx, "elicitation");
      return inputRequired({ inputRequests: { confirm: ASK_NAME } });
    },
  );
  mcp.tool(
    "test_logging_tool",
    { description: "Logs at info level when the request opts in" },
    (_args, ctx) => {
      ctx.log("info", "Tool execution started");
      ctx.log("info", "Tool processing data");
      ctx.log("info", "Tool execution completed");
      return "Logged three messages";
    },
  );
  mcp.tool("test_trigger_tool_change", { description: "Publishes tools/list_changed" }, () => {
    mcp.server.notifyListChanged("tools");
    return "tools/list_changed published";
  });
  mcp.tool("test_trigger_prompt_change", { description: "Publishes prompts/list_changed" }, () => {
    mcp.server.notifyListChanged("prompts");
    return "prompts/list_changed published";
  });
}

/** The question `confirm_delete` asks, in a task (`ctx.elicit`) or as a multi round-trip round. */
function askDelete(filename: string) {
  return askString(`Delete ${filename}? Type yes.`, "answer");
}

/**
 * The tools the tasks-* scenarios call, on the tasks extension: `greet` never runs as a task;
 * `slow_compute`, `protocol_error_job`, `confirm_delete` and `multi_input` run as one when the request
 * declares the extension; `failing_job` and `test_tool_with_task` only so (-32021 otherwise).
 * `confirm_delete` and `multi_input` ask through the task (`ctx.elicit`) inside one, and as multi
 * round-trip rounds otherwise; `test_tool_with_task` asks its round before its task exists.
 */
function taskFixtures(mcp: MCPServer): void {
  mcp.tool(
    "greet",
    { description: "Greets someone", inputSchema: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );
  mcp.tool(
    "slow_compute",
    {
      description: "Sleeps for a number of seconds (at most 60), then answers",
      inputSchema: z.object({ seconds: z.number().optional(), label: z.string().optional() }),
      task: "optional",
    },
    async ({ seconds = 0, label = "result" }, ctx) => {
      ctx.sendProgress({ progress: 0, total: 1, message: `Computing ${label}` });
      await sleep(Math.min(Math.max(seconds, 0), 60) * 1000, ctx.signal);
      return `Computed ${label} after ${seconds} s`;
    },
  );
  mcp.tool(
    "failing_job",
    { description: "Works for a second, then reports a tool error", task: "required" },
    async (_args, ctx): Promise<CallToolResult> => {
      await sleep(1000, ctx.signal);
      return { isError: true, content: [text("The job failed.")] };
    },
  );
  mcp.tool(
    "protocol_error_job",
    { description: "Works briefly, then fails with a protocol error", task: "optional" },
    async (_args, ctx) => {
      await sleep(100, ctx.signal);
      throw McpError.of("INTERNAL_ERROR", "The job lost its worker");
    },
  );
  mcp.tool(
    "confirm_delete",
    {
      description: "Asks before deleting a file",
      inputSchema: z.object({ filename: z.string() }),
      task: "optional",
    },
    async ({ filename }, ctx) => {
      if (ctx.task !== undefined) {
        const answer = await ctx.elicit(askDelete(filename).params);
        return `${filename}: ${describeElicitResult(answer)}`;
      }
      if (answerOf(ctx.inputResponses, "confirm") !== undefined) {
        return `${filename}: ${describeElicitation(ctx.inputResponses, "confirm")}`;
      }
      requireCapability(ctx, "elicitation");
      return inputRequired({ inputRequests: { confirm: askDelete(filename) } });
    },
  );
  mcp.tool(
    "multi_input",
    { description: "Asks two questions at once", task: "optional" },
    async (_args, ctx) => {
      if (ctx.task !== undefined) {
        const [first, second] = await Promise.all([
          ctx.elicit(askString("First?", "value").params),
          ctx.elicit(askString("Second?", "value").params),
        ]);
        return `Both answers received: ${describeElicitResult(first)}; ${describeElicitResult(second)}`;
      }
      if (
        answerOf(ctx.inputResponses, "first") !== undefined &&
        answerOf(ctx.inputResponses, "second") !== undefined
      ) {
        return "Both answers received.";
      }
      requireCapability(ctx, "elicitation");
      return inputRequired({
        inputRequests: { first: askString("First?", "value"), second: askString("Second?", "value") },
      });
    },
  );
  mcp.tool(
    "test_tool_with_task",
    { description: "Asks a name as a multi round-trip round, then greets as a task", task: "required" },
    (_args, ctx) => {
      const name = accepted(ctx.inputResponses, "user_name")?.name;
      if (typeof name !== "string") {
        requireCapability(ctx, "elicitation");
        return inputRequired({ inputRequests: { user_name: ASK_NAME }, requestState: "task-after-input" });
      }
      return `Hello, ${name}! (greeted in task ${ctx.task?.taskId})`;
    },
  );
}

/**
 * The tool `http-custom-header-server-validation` looks for: the first listed tool with a
 * top-level string property annotated `x-mcp-header`. The server checks its `Mcp-Param-Region`
 * header against `region` before the body runs; the body only echoes what it was given.
 */
function customHeaderFixtures(mcp: MCPServer): void {
  mcp.tool(
    "test_custom_header",
    {
      description: "Runs a query in a region; the region travels as the Mcp-Param-Region header too",
      inputSchema: z.object({
        region: z.string().describe("The region to run the query in").meta({ "x-mcp-header": "Region" }),
        query: z.string().optional().describe("The query to run"),
      }),
    },
    ({ region, query }) => `Ran ${JSON.stringify(query ?? "")} in ${JSON.stringify(region)}`,
  );
}

/** Registers every tool fixture on `mcp`. */
export function registerTools(mcp: MCPServer): void {
  contentFixtures(mcp);
  inputRequiredFixtures(mcp);
  statelessFixtures(mcp);
  taskFixtures(mcp);
  customHeaderFixtures(mcp);
}
