/**
 * The disks example as `npm run example -- disks`: the official 1.x client answers the tool's
 * question over its session and gets the final result.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "tsmcp/client";
import { describe, expect, it } from "vitest";
import { createDisksServer } from "./disks.js";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("the disks example", () => {
  it("runs as written: the 1.x client answers elicitation/create and gets Wiped sdb", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/run.ts", "disks"],
      { cwd: root },
    );
    expect(stdout).toContain("Wiped sdb");
  });

  it("serves a 2026-07-28 client the same tool through an InputRequiredResult", async () => {
    const client = await Client.connect(createDisksServer(), {
      elicitationCallback: async () => ({ action: "accept", content: { ok: false } }),
    });
    const result = await client.callTool("wipe", { disk: "sdb" });
    await client.close();
    expect(result.content).toEqual([{ type: "text", text: "Kept" }]);
  });
});
