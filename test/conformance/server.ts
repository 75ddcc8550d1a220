/**
 * The conformance fixture server: the tools the official suite calls, on one Streamable HTTP
 * endpoint (`http://127.0.0.1:$PORT/mcp`). Run: `PORT=3000 npx tsx test/conformance/server.ts`.
 */
import { elicitationRequest, inputRequired, Server } from "tsmcp/server";
import { serve } from "tsmcp/transport";
import { type CallToolResult, type ElicitResult, McpError } from "tsmcp/types";

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const noArgs = { type: "object" as const, additionalProperties: false };

const TOOLS = [
  { name: "test_missing_capability", description: "Needs the sampling capability", inputSchema: noArgs },
  {
    name: "test_streaming_elicitation",
    description: "Asks for input with an elicitation",
    inputSchema: noArgs,
  },
  { name: "test_logging_tool", description: "Logs at several levels", inputSchema: noArgs },
  { name: "test_trigger_tool_change", description: "Publishes tools/list_changed", inputSchema: noArgs },
  { name: "test_trigger_prompt_change", description: "Publishes prompts/list_changed", inputSchema: noArgs },
  {
    name: "test_input_required_result_elicitation",
    description: "Asks for the user's name",
    inputSchema: noArgs,
  },
];

const ASK_NAME = elicitationRequest({
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
});

/** Builds the fixture server. */
export function createConformanceServer(): Server {
  const server: Server = new Server("tsmcp-conformance", {
    version: "0.1.0",
    onListTools: () => ({ tools: TOOLS }),
    onListPrompts: () => ({ prompts: [{ name: "test_simple_prompt", description: "A simple prompt" }] }),
    onGetPrompt: (_ctx, params) => {
      if (params.name !== "test_simple_prompt") throw new McpError(-32602, `Unknown prompt: ${params.name}`);
      return {
        messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
      };
    },
    onCallTool: (ctx, params) => {
      switch (params.name) {
        case "test_missing_capability":
          if (ctx.clientCapabilities.sampling === undefined) {
            throw McpError.of(
              "MISSING_REQUIRED_CLIENT_CAPABILITY",
              "Server requires the sampling capability for this request",
              { requiredCapabilities: { sampling: {} } },
            );
          }
          return text("sampling is declared");
        case "test_streaming_elicitation":
          return inputRequired({ inputRequests: { confirm: ASK_NAME } });
        case "test_logging_tool":
          ctx.log("info", "Tool execution started");
          ctx.log("info", "Tool processing data");
          ctx.log("info", "Tool execution completed");
          return text("Logged three messages");
        case "test_trigger_tool_change":
          server.notifyListChanged("tools");
          return text("tools/list_changed published");
        case "test_trigger_prompt_change":
          server.notifyListChanged("prompts");
          return text("prompts/list_changed published");
        case "test_input_required_result_elicitation": {
          const answer = params.inputResponses?.user_name as ElicitResult | undefined;
          if (answer === undefined) return inputRequired({ inputRequests: { user_name: ASK_NAME } });
          const name = answer.action === "accept" ? answer.content?.name : undefined;
          return text(typeof name === "string" ? `Hello, ${name}!` : `The user chose to ${answer.action}.`);
        }
        default:
          throw new McpError(-32602, `Unknown tool: ${params.name}`);
      }
    },
  });
  return server;
}

const handle = await serve(createConformanceServer(), {
  host: "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
});
console.log(`conformance server listening on ${handle.url}`);
