/**
 * A server's words reach the terminal with their control characters shown as escapes: tool text,
 * progress and log messages, prompt and resource text, and the server's error messages, on stdout
 * and stderr alike. `--json` output parses to the server's text as it is, with no raw control
 * character in it. A hostile server would otherwise write the clipboard (OSC 52), set the title
 * and clear the screen. A stdio server's own stderr goes through the same escaping, line by line.
 */
import { MCPServer } from "tsmcp/server";
import { McpError, silentLogger } from "tsmcp/types";
import { describe, expect, it } from "vitest";
import { httpExample, tsmcp } from "./run-cli.js";

/** Sets the title, writes the clipboard, clears the screen, a C1 CSI, a carriage return. */
const HOSTILE = "hi\u001b]0;pwned\u0007\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u009b31m\r!";
const SHOWN = "hi\\x1b]0;pwned\\x07\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x1b[2J\\x9b31m\\x0d!";
/** Any control character but line feed and tab. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function createHostileServer(): MCPServer {
  const mcp = new MCPServer("hostile", { version: "1.0.0", logger: silentLogger });
  mcp.tool("evil", { description: HOSTILE }, async (_args, ctx) => {
    ctx.log("info", HOSTILE);
    ctx.sendProgress({ progress: 1, total: 1, message: HOSTILE });
    return HOSTILE;
  });
  mcp.tool("broken", {}, () => {
    throw new McpError(-32602, HOSTILE);
  });
  mcp.prompt("evil", { description: HOSTILE }, () => ({
    messages: [{ role: "user", content: { type: "text", text: HOSTILE } }],
  }));
  mcp.resource("evil://r", { name: "r" }, () => HOSTILE);
  return mcp;
}

/** Each test runs several commands, a process each. */
const SEVERAL_PROCESSES = { timeout: 60_000 };

describe("tsmcp and a server's control characters", () => {
  it("shows them as escapes in human output on stdout and stderr", SEVERAL_PROCESSES, async () => {
    const url = await httpExample(createHostileServer());
    const [call, broken, prompt, read, tools] = await Promise.all([
      tsmcp(["call", url, "evil"]),
      tsmcp(["call", url, "broken"]),
      tsmcp(["prompt", url, "evil"]),
      tsmcp(["read", url, "evil://r"]),
      tsmcp(["tools", url]),
    ]);
    for (const run of [call, broken, prompt, read, tools]) {
      expect(run.stdout).not.toMatch(RAW_CONTROL);
      expect(run.stderr).not.toMatch(RAW_CONTROL);
    }
    expect(call).toMatchObject({ code: 0, stdout: `${SHOWN}\n` });
    expect(call.stderr).toContain(`[info] ${SHOWN}\n`);
    expect(call.stderr).toContain(`progress 1/1 ${SHOWN}\n`);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(SHOWN);
    expect(prompt).toMatchObject({ code: 0, stdout: `${SHOWN}\nuser: ${SHOWN}\n` });
    expect(read).toMatchObject({ code: 0, stdout: `${SHOWN}\n` });
    expect(tools.stdout).toContain(SHOWN);
  });

  it(
    "keeps them as JSON escapes with --json: the output parses to the server's text",
    SEVERAL_PROCESSES,
    async () => {
      const url = await httpExample(createHostileServer());
      const run = await tsmcp(["--json", "call", url, "evil"]);
      expect(run.code).toBe(0);
      expect(run.stdout).not.toMatch(RAW_CONTROL);
      expect(run.stderr).not.toMatch(RAW_CONTROL);
      expect(JSON.parse(run.stdout)).toMatchObject({ content: [{ type: "text", text: HOSTILE }] });
    },
  );
});

/** A stdio target running `test/cli/fixtures/stderr-server.ts` with `args`. */
function stderrServer(...args: string[]): string {
  return [process.execPath, "--import", "tsx", "test/cli/fixtures/stderr-server.ts", ...args]
    .map((word) => JSON.stringify(word))
    .join(" ");
}

/** The lines the fixture writes on its stderr, as the command shows them. */
const STDERR_LINES = [
  "clear \\x1b[2J screen\n",
  "file \\u202etxt.exe\n",
  "isolate \\u2066inside\\u2069 out\n",
  "zero\\u200bwidth line\\u2028separator paragraph\\u2029separator\n",
  "crlf line\n",
  "last words \\u202e without a line feed\n",
];
const STDERR_SHOWN = STDERR_LINES.join("");
/** The bidirectional formatting characters, and the invisible separators U+200B, U+2028, U+2029. */
const RAW_FORMAT = /[\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("tsmcp and a stdio server's stderr", () => {
  it("shows each line of it on stderr with its controls and formatting characters escaped", async () => {
    const run = await tsmcp(["tools", stderrServer()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ok");
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).not.toMatch(RAW_FORMAT);
    expect(run.stderr).toContain(STDERR_SHOWN);
  });

  it("shows it, whole lines from each process, before the failure of a command that exits without answering", async () => {
    // `auto` starts the command again for the 2025-era handshake, so its lines may come twice.
    const run = await tsmcp(["tools", stderrServer("--exit")]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).not.toMatch(RAW_FORMAT);
    const lines = run.stderr.split(/(?<=\n)/);
    expect(lines.pop()).toMatch(/exited with code 3 without answering/);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("")).toBe(STDERR_SHOWN.repeat(lines.length / STDERR_LINES.length));
  });
});
