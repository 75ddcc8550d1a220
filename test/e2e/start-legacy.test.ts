/**
 * `npm start -- --server legacy`, run as a person runs it (a real process, stdin not a terminal):
 * the provisioning flow against a handshake-era server built on the official 1.x SDK. The probe is
 * refused, the client falls back to `initialize`, and the region question arrives over the
 * back-channel, where the same callback answers it with the question's default.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("npm start -- --server legacy", () => {
  it("provisions against a handshake-era server, the question answered over the back-channel", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/start.ts", "--server", "legacy"],
      { cwd: root, env: { ...process.env, NO_COLOR: "1" }, timeout: 15_000 },
    );
    const lines = stdout.split("\n");
    expect(lines).toContain("agreed protocol version: 2025-11-25");
    const asked = lines.findIndex((line) => line.startsWith('← elicitation/create "Which region should'));
    const answered = lines.findIndex((line) => line.startsWith("→ answer to elicitation/create"));
    expect(asked).toBeGreaterThan(-1);
    expect(answered).toBeGreaterThan(asked);
    expect(lines[answered]).toContain('"region":"eu-west-1"');
    expect(stdout).toContain("Result: Provisioned orders in eu-west-1");
  });

  it("refuses a --server it does not know, with the usage", async () => {
    const run = promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/start.ts", "--server", "old"],
      {
        cwd: root,
        timeout: 15_000,
      },
    );
    await expect(run).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--server must be modern or legacy, got old"),
    });
  });
});
