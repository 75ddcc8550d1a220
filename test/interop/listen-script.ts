/**
 * A small program on the tsmcp `Client`, run as a real child process by the listen suites:
 * `node --import tsx test/interop/listen-script.ts`. It connects over stdio to the 1.x
 * subscriptions server (a 2025-11-25 server), listens for `notes://1` and tool list changes,
 * makes the server send one of each, closes, and prints what it saw as one JSON line. A failure to
 * listen is caught and printed; the program must still exit 0.
 */
import { Client } from "../../packages/tsmcp/src/client/index.js";
import type { JSONRPCNotification } from "../../packages/tsmcp/src/protocol/index.js";
import { ROOT } from "./peers.js";

const client = await Client.connect(
  {
    command: process.execPath,
    args: ["--import", "tsx", "test/interop/official-v1-subscriptions-server.ts"],
    cwd: ROOT,
  },
  { timeoutMs: 10_000 },
);
const seen: string[] = [];
let arrived: (() => void) | undefined;
const bothArrived = new Promise<void>((resolve) => {
  arrived = resolve;
});
const subscription = client.listen(
  { resourceSubscriptions: ["notes://1"], toolsListChanged: true },
  (notification: JSONRPCNotification) => {
    seen.push(`${notification.method} ${String(notification.params?.uri ?? "")}`.trim());
    if (seen.length === 2) arrived?.();
  },
);
const report: Record<string, unknown> = { era: client.era };
try {
  report.acknowledged = await subscription.acknowledged;
  await client.callTool("touch", { uri: "notes://1" });
  await client.callTool("add_tool", { name: "late" });
  await bothArrived;
  report.seen = seen;
} catch (error) {
  report.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
subscription.close();
await client.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
