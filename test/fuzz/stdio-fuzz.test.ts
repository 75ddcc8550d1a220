/**
 * Fuzz property of the stdio server: a spawned server fed malformed lines (the bodies the HTTP
 * fuzz sends, one per line) never exits and writes nothing but JSON-RPC messages; after each
 * batch of lines it still answers a `ping`. Spec: basic/transports/stdio.
 */
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawServer, REPO_ROOT } from "../../packages/tsmcp/src/transport/stdio/fixtures/harness.js";
import { fuzzBody } from "./arbitraries.js";

const SERVER = fileURLToPath(new URL("./server.ts", import.meta.url));

/** Batches of lines sent, each followed by a ping. */
const RUNS = 100;

describe("malformed lines over stdio", () => {
  let server: RawServer;

  beforeAll(() => {
    server = new RawServer({
      command: process.execPath,
      args: ["--import", "tsx", SERVER, "--stdio"],
      cwd: REPO_ROOT,
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  it("never end the server or draw anything but JSON-RPC, and a ping is still answered", async () => {
    let sentinel = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fuzzBody, { minLength: 1, maxLength: 4 }), async (lines) => {
        sentinel += 1;
        const id = `sentinel-${sentinel}`;
        const answered = server.response(id);
        for (const line of lines) server.writeRaw(`${line.replace(/[\r\n]/g, " ")}\n`);
        server.send({ jsonrpc: "2.0", id, method: "ping", params: {} });
        expect(await answered).toMatchObject({ jsonrpc: "2.0", id });
        expect(server.garbage).toEqual([]);
        expect(server.child.exitCode).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });
});
