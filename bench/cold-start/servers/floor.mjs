// The floor: a bare Node process answering newline-delimited JSON-RPC on stdin, no SDK, no checks.
import { createInterface } from "node:readline";

const version = "2025-11-25";
for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  const result =
    message.method === "initialize"
      ? {
          protocolVersion: version,
          capabilities: { tools: {} },
          serverInfo: { name: "cold", version: "1.0.0" },
        }
      : { content: [{ type: "text", text: message.params.arguments.text }] };
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`);
}
