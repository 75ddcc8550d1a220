import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { post } from "../../../../../test/helpers/mcp-post.js";
import { ERRORS } from "../../protocol/errors.js";
import { HttpClientTransport } from "../../transport/http/client/client.js";
import { errorOf, request, stateOf, textOf } from "./state-test-fixtures.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, "../../../../..");
const FIXTURE = resolve(HERE, "fixtures/sealed-http-server.ts");

interface Worker {
  child: ChildProcessWithoutNullStreams;
  url: string;
  pid: number;
  /** Resolves with the first stderr line that contains `text`. */
  stderrLine(text: string): Promise<string>;
}

const started: ChildProcessWithoutNullStreams[] = [];

afterEach(async () => {
  await Promise.all(
    started.splice(0).map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("close", () => done());
          child.stdin.end();
        }),
    ),
  );
});

/** Starts one server process and resolves once it printed its URL. */
function startWorker(key: string, name: string): Promise<Worker> {
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE], {
    cwd: REPO_ROOT,
    env: { ...process.env, STATE_KEY: key, SERVER_NAME: name },
  });
  started.push(child);
  const stderrLines: string[] = [];
  const waiters: { text: string; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stderr }).on("line", (line) => {
    stderrLines.push(line);
    for (const waiter of waiters.filter((w) => line.includes(w.text))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const stderrLine = (text: string) =>
    new Promise<string>((resolveLine) => {
      const seen = stderrLines.find((line) => line.includes(text));
      if (seen !== undefined) resolveLine(seen);
      else waiters.push({ text, resolve: resolveLine });
    });
  return new Promise((resolveWorker, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (line) => {
      const { url, pid } = JSON.parse(line) as { url: string; pid: number };
      resolveWorker({ child, url, pid, stderrLine });
    });
    child.once("exit", (code) => reject(new Error(`fixture exited with ${code}: ${stderrLines.join("\n")}`)));
  });
}

const FROZEN = {
  code: -32602,
  message: "Invalid or expired requestState",
  data: { reason: "invalid_request_state" },
};

const provision = (params: Record<string, unknown> = {}, id = 1) =>
  request("tools/call", { name: "provision", arguments: { name: "orders" }, ...params }, id);

describe("a fleet of server processes over Streamable HTTP", () => {
  it("verifies each other's tokens when they share keys and a name, and refuses them with different names", async () => {
    const key = randomBytes(32).toString("base64url");
    const [east, west, billing] = await Promise.all([
      startWorker(key, "Fleet"),
      startWorker(key, "Fleet"),
      startWorker(key, "Billing"),
    ]);
    expect(new Set([east.pid, west.pid, billing.pid]).size).toBe(3);
    const toEast = new HttpClientTransport(east.url);
    const toWest = new HttpClientTransport(west.url);
    const toBilling = new HttpClientTransport(billing.url);
    try {
      const token = stateOf(await toEast.request(provision()));
      expect(token).toMatch(/^v1\./);
      expect(textOf(await toWest.request(provision({ requestState: token }, 2)))).toBe("done after step-1");

      expect(errorOf(await toBilling.request(provision({ requestState: token }, 3)))).toStrictEqual(FROZEN);
      // The frozen error is -32602, which the error table answers with HTTP 400.
      expect(ERRORS.INVALID_PARAMS).toStrictEqual({ code: -32602, httpStatus: 400 });
      const { status, contentType, body } = await post(billing.url, provision({ requestState: token }, 4));
      expect({ status, contentType, body }).toStrictEqual({
        status: 400,
        contentType: expect.stringMatching(/^application\/json\b/),
        body: { jsonrpc: "2.0", id: 4, error: FROZEN },
      });
      const logged = await billing.stderrLine("requestState rejected on tools/call:");
      expect(logged).toContain("requestState rejected on tools/call: audience");
      expect(logged).not.toContain(token);
    } finally {
      await Promise.all([toEast.close(), toWest.close(), toBilling.close()]);
    }
  }, 60_000);
});
