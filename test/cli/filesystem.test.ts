/**
 * The `tsmcp` command against the official filesystem server (`@modelcontextprotocol/server-filesystem`,
 * a real child process over stdio), a server of tools alone that replaces the directories it was
 * started with by the client's roots as soon as the client declares the roots capability. The
 * command offers roots only when `--root` names them, so by default the server keeps its own
 * directories; and a listing of what the server does not offer says so instead of failing.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { listRoots, MCPServer, resolver } from "tsmcp/server";
import { describe, expect, it } from "vitest";
import { httpExample, tsmcp } from "./run-cli.js";

const require = createRequire(import.meta.url);
/** The filesystem server's bin script. */
const FILESYSTEM_SERVER = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
/** The 1.x SDK fixture over stdio: its `roots` tool asks the client for its roots. */
const V1_STDIO = `${JSON.stringify(process.execPath)} --import tsx test/interop/official-v1-server.ts`;

/** A stdio target running the filesystem server with `directories` allowed. */
function filesystemServer(...directories: string[]): string {
  return [process.execPath, FILESYSTEM_SERVER, ...directories].map((part) => JSON.stringify(part)).join(" ");
}

/** A fresh directory holding `note.txt`. */
function directoryWithNote(text: string): string {
  const directory = mkdtempSync(join(tmpdir(), "tsmcp-fs-"));
  writeFileSync(join(directory, "note.txt"), text);
  return directory;
}

/** The `params` of the `initialize` request the command sent, from its `-vv` trace. */
function initializeParams(stderr: string): { capabilities: Record<string, unknown> } {
  const line = stderr
    .split("\n")
    .find((entry) => entry.startsWith('-> {"') && entry.includes('"initialize"'));
  expect(line).toBeDefined();
  return JSON.parse((line as string).slice(3)).params;
}

describe("tsmcp against the official filesystem server", () => {
  it("reads a file in the directory the server was started with, offering no roots unless asked", async () => {
    const directory = directoryWithNote("hello from the allowed directory\n");
    const run = await tsmcp([
      "-vv",
      "call",
      filesystemServer(directory),
      "read_text_file",
      `path=${join(directory, "note.txt")}`,
    ]);
    expect(run.stderr).not.toContain("Access denied");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("hello from the allowed directory");
    // No roots capability: nothing for the server to replace its directories with.
    expect(initializeParams(run.stderr).capabilities).not.toHaveProperty("roots");
    expect(run.stderr).not.toContain('"roots/list"');
  });

  it("offers the directories --root names, as file URIs, to a server that asks for roots", async () => {
    const root = mkdtempSync(join(tmpdir(), "tsmcp-root-"));
    const run = await tsmcp(["--root", root, "--root", "file:///srv/data", "call", V1_STDIO, "roots"]);
    expect(run).toMatchObject({ code: 0, stdout: `${pathToFileURL(root).href}, file:///srv/data\n` });
  });

  it("declares no roots without --root, so a 2025-era server asking for them is told no", async () => {
    const run = await tsmcp(["-vv", "call", V1_STDIO, "roots"]);
    expect(initializeParams(run.stderr).capabilities).not.toHaveProperty("roots");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Method not found: roots/list");
  });

  it("says to offer roots with --root when a 2026 server needs them, and answers with them", async () => {
    const mcp = new MCPServer("roots-needed");
    mcp.tool("where", { resolve: { roots: resolver("roots", () => listRoots()) } }, async (_args, ctx) =>
      ctx.resolved.roots.roots.map((root) => root.uri).join(", "),
    );
    const url = await httpExample(mcp);
    const refused = await tsmcp(["call", url, "where"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("-32021");
    expect(refused.stderr).toContain("offer them with --root <path>");
    const answered = await tsmcp(["--root", "file:///srv/data", "call", url, "where"]);
    expect(answered).toMatchObject({ code: 0, stdout: "file:///srv/data\n" });
  });

  it.each([
    ["prompts", "this server offers no prompts"],
    ["resources", "this server offers no resources"],
    ["templates", "this server offers no resource templates"],
  ])(
    "says the server offers no %s, and exits 0, rather than failing with Method not found",
    async (kind, said) => {
      const run = await tsmcp([kind, filesystemServer(directoryWithNote("x"))]);
      expect(run.stderr).not.toContain("-32601");
      expect(run).toMatchObject({ code: 0, stdout: `${said}\n` });
    },
  );

  it("prints an empty list with --json for what the server does not offer", async () => {
    const run = await tsmcp(["--json", "prompts", filesystemServer(directoryWithNote("x"))]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ prompts: [] });
  });

  it("still lists the tools the server offers", async () => {
    const run = await tsmcp(["tools", filesystemServer(directoryWithNote("x"))]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("read_text_file(");
  });
});
