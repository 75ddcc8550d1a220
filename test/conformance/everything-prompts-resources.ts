/**
 * The prompts, resources and resource template of the conformance everything-server, registered on
 * an `MCPServer`: the `prompts-*`, `resources-*`, `completion-complete` and
 * `input-required-result-non-tool-request` fixtures. A URI that matches nothing answers -32602 with
 * `data.uri` (`sep-2164-resource-not-found`).
 */
import { inputRequired, type MCPServer } from "tsmcp/server";
import { accepted, answerOf, askString, RED_PIXEL_PNG, requireCapability, text } from "./fixtures.js";

/** Completion values by argument, filtered by the typed prefix. */
function suggest(values: readonly string[]): (prefix: string) => string[] {
  return (prefix) => values.filter((value) => value.startsWith(prefix));
}

const ASK_CONTEXT = askString("What context should the prompt use?", "context");

/** Registers every prompt fixture on `mcp`. */
export function registerPrompts(mcp: MCPServer): void {
  mcp.prompt("test_simple_prompt", { description: "A simple prompt without arguments" }, () => [
    { role: "user", content: text("This is a simple prompt for testing.") },
  ]);
  mcp.prompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two required arguments",
      argsSchema: {
        type: "object",
        properties: {
          arg1: { type: "string", description: "First test argument" },
          arg2: { type: "string", description: "Second test argument" },
        },
        required: ["arg1", "arg2"],
      },
      complete: { arg1: suggest(["paris", "park", "party"]), arg2: suggest(["world", "wonder", "work"]) },
    },
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  );
  mcp.prompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt embedding a resource",
      argsSchema: {
        type: "object",
        properties: { resourceUri: { type: "string", description: "URI of the resource to embed" } },
        required: ["resourceUri"],
      },
    },
    ({ resourceUri }) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: {
            uri: String(resourceUri),
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        },
      },
      { role: "user", content: text("Please process the embedded resource above.") },
    ],
  );
  mcp.prompt("test_prompt_with_image", { description: "A prompt with an image" }, () => [
    { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
    { role: "user", content: text("Please analyze the image above.") },
  ]);
  mcp.prompt(
    "test_input_required_result_prompt",
    { description: "A prompt that asks for context first" },
    (_args, ctx) => {
      if (answerOf(ctx.inputResponses, "user_context") === undefined) {
        requireCapability(ctx, "elicitation");
        return inputRequired({ inputRequests: { user_context: ASK_CONTEXT } });
      }
      const context = accepted(ctx.inputResponses, "user_context")?.context;
      return `Use this context: ${String(context ?? "(none)")}`;
    },
  );
}

/** Registers every resource and template fixture on `mcp`. */
export function registerResources(mcp: MCPServer): void {
  mcp.resource(
    "test://static-text",
    { name: "static-text", description: "A static text resource", mimeType: "text/plain" },
    () => "This is the content of the static text resource.",
  );
  mcp.resource(
    "test://static-binary",
    { name: "static-binary", description: "A static binary resource (a PNG)", mimeType: "image/png" },
    () => Buffer.from(RED_PIXEL_PNG, "base64"),
  );
  mcp.resource(
    "test://watched-resource",
    {
      name: "watched-resource",
      description: "A resource to watch with subscriptions/listen",
      mimeType: "text/plain",
    },
    () => "Watched resource content.",
  );
  mcp.resource(
    "test://template/{id}/data",
    {
      name: "template-data",
      description: "Data for one id",
      mimeType: "application/json",
      complete: { id: suggest(["1", "2", "3", "123"]) },
    },
    ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  );
}
