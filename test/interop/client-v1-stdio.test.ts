/**
 * The tsmcp `Client` against a server built on the official 1.x SDK over stdio, a real child
 * process: the `server/discover` probe gets -32601 and `initialize` follows on the same process;
 * the server's requests arrive on stdout and are answered on stdin by the callbacks.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { type Asked, clientCases, interopCallbacks, newAsked } from "./client-cases.js";
import { ROOT } from "./peers.js";

let client: Client;
const asked: Asked = newAsked();

beforeAll(async () => {
  client = await Client.connect(
    { command: process.execPath, args: ["--import", "tsx", "test/interop/official-v1-server.ts"], cwd: ROOT },
    { ...interopCallbacks(asked), timeoutMs: 10_000 },
  );
});

afterAll(async () => {
  await client?.close();
});

describe("the tsmcp Client against the official 1.x server over stdio", () => {
  clientCases(() => client, asked, { logsNameTheirRequest: false });
});
