// A consumer of the runtime-neutral entries only, as a browser or edge project writes it: type-checked
// with `lib: ["ES2022", "DOM"]`, no ambient `types` (the default from TypeScript 6 on) and
// `skipLibCheck` off, so no declaration these entries reach may need `@types/node`.
import { appResource, appTool, readUiResource } from "tsmcp/apps";
import { Client } from "tsmcp/client";
import { elicitationRequest, inputRequired, MCPServer, RequestStateSecurity } from "tsmcp/server";
import { activeTraceFields, type TelemetryOption } from "tsmcp/telemetry";
import { createHttpHandler } from "tsmcp/transport";
import type { CallToolResult, ElicitResult } from "tsmcp/types";
import { createSessionObject, createSessionRouter } from "tsmcp/workers";

export async function run(): Promise<string> {
  const mcp = new MCPServer("edge", { version: "1.0.0" });
  mcp.tool("provision", { inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = ctx.inputResponses?.region as ElicitResult | undefined;
    if (answer === undefined) {
      const ask = elicitationRequest({
        message: "Which region?",
        requestedSchema: { type: "object", properties: {} },
      });
      return inputRequired({ inputRequests: { region: ask } });
    }
    return "done";
  });
  appResource(mcp, "ui://edge/view", { ui: { prefersBorder: true } }, "<!DOCTYPE html><p>edge</p>");
  appTool(mcp, "view", { ui: { resourceUri: "ui://edge/view" } }, () => "viewed");
  const fetchHandler: (request: Request) => Promise<Response> = createHttpHandler(mcp);
  void fetchHandler;
  void RequestStateSecurity;
  void createSessionRouter;
  void createSessionObject(() => mcp);
  const telemetry: TelemetryOption = true;
  const client = await Client.connect(mcp, { telemetry });
  void activeTraceFields();
  const result: CallToolResult = await client.callTool("provision", {});
  const view = await readUiResource(client, "ui://edge/view");
  if (!view.html.includes("edge")) throw new Error("the UI resource was not read");
  await client.close();
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}
