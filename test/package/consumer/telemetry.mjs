// Telemetry on, without @opentelemetry/api installed: a server and a client with the `telemetry`
// option, a call that completes and one whose handler throws (the server logs it), and the
// tsmcp/telemetry entry. Prints one line: the result, the logged line and its fields' names, and
// what activeTraceFields() gives.
import { Client } from "tsmcp/client";
import { Server } from "tsmcp/server";
import { activeTraceFields } from "tsmcp/telemetry";

const logged = [];
const logger = {
  debug: () => {},
  info: () => {},
  warn: (message, fields) => logged.push([message, Object.keys(fields ?? {})]),
  error: (message, fields) => logged.push([message, Object.keys(fields ?? {})]),
};
const server = new Server("untraced", {
  version: "1.0.0",
  logger,
  telemetry: true,
  onListTools: () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
  onCallTool: (_ctx, params) => {
    if (params.arguments?.fail === true) throw new Error("boom");
    return { content: [{ type: "text", text: "echoed" }] };
  },
});
const client = await Client.connect(server, { telemetry: true });
const result = await client.callTool("echo", {});
const failed = await client.callTool("echo", { fail: true }).then(
  () => "answered",
  (error) => error.code,
);
await client.close();
process.stdout.write(
  `${JSON.stringify({ text: result.content[0].text, failed, logged, traceFields: activeTraceFields() ?? null })}\n`,
);
