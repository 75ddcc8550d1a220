/**
 * The protected example as `npm run example -- protected` runs it without configuration: a local
 * authorization server, the 401 challenge and metadata, a scope refusal, then calls as two users.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("the protected example", () => {
  it("runs its self-contained demo and exits cleanly", async () => {
    const env = { ...process.env };
    delete env.MCP_ISSUER;
    const child = spawn(process.execPath, ["--import", "tsx", "examples/run.ts", "protected"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "ignore"],
    });
    onTestFinished(() => {
      child.kill("SIGKILL");
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^notes listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(lines[1]).toMatch(
      /^without a token: 401 Bearer scope="notes:read", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    expect(lines.slice(2)).toEqual([
      "metadata names the authorization server: true",
      "alice (notes:read): No notes yet, alice.",
      "alice (notes:read) adds a note: Forbidden: insufficient scope",
      "alice (notes:read notes:write): Added a note for alice.",
      "bob (notes:read): alice: hello",
    ]);
  }, 60_000);
});
