/**
 * The pino example as `npm run example -- pino-logger`, and its adapter in this process: pino's
 * records of tsmcp's lines, with the trace id of the active span and the error serialized.
 */
import { execFile } from "node:child_process";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "tsmcp/client";
import { describe, expect, it } from "vitest";
import { createInventoryServer, createPino, pinoLogger } from "./pino-logger.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** A destination keeping pino's records, parsed. */
function records(): { stream: Writable; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line !== "") lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

describe("the pino example", () => {
  it("runs as written: the server's failure is one pino record carrying the span's trace id", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/run.ts", "pino-logger"],
      { cwd: root },
    );
    // pino writes its records asynchronously by default, so its line and the example's own
    // `trace:` line may come in either order.
    const lines = stdout.trim().split("\n");
    const traceId = lines.find((line) => line.startsWith("trace: "))?.replace(/^trace: /, "");
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const record = JSON.parse(lines.find((line) => line.startsWith("{")) ?? "{}") as Record<string, unknown>;
    expect(record).toMatchObject({
      level: 50,
      service: "inventory",
      msg: "handler for tools/call failed",
      trace_id: traceId,
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      error: { type: "Error", message: "the inventory database is down" },
    });
    expect(lines).toHaveLength(2);
  });

  it("records a failure outside any span with no trace fields", async () => {
    const { stream, lines } = records();
    const client = await Client.connect(createInventoryServer(createPino(stream)));
    await expect(client.callTool("count")).rejects.toThrow("Internal error");
    await client.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toBe("handler for tools/call failed");
    expect(Object.keys(lines[0] ?? {})).not.toContain("trace_id");
  });

  it("maps each tsmcp level to pino's, the fields first", () => {
    const { stream, lines } = records();
    const log = createPino(stream);
    log.level = "debug";
    const logger = pinoLogger(log);
    logger.debug("one", { step: 1 });
    logger.info("two");
    logger.warn("three", { step: 3 });
    logger.error("four");
    expect(lines.map(({ level, msg, step }) => ({ level, msg, step }))).toEqual([
      { level: 20, msg: "one", step: 1 },
      { level: 30, msg: "two", step: undefined },
      { level: 40, msg: "three", step: 3 },
      { level: 50, msg: "four", step: undefined },
    ]);
  });
});
