/**
 * `tsmcp <target>` on a pseudo-terminal: the menu lists the server's tools, prompts, resources and
 * templates, filtered as keys are typed; a tool runs with its arguments asked as a form and its
 * questions asked in turn; results show (structured content as a table, an image saved to a file
 * and named); `history` lists the session's calls; Ctrl-D ends it with exit code 0.
 */
import { readFileSync } from "node:fs";
import { Server } from "tsmcp/server";
import { describe, expect, it } from "vitest";
import { createDocsServer } from "../../examples/docs/server.js";
import { KEY, onTerminal } from "./pty.js";
import { httpExample, tsmcp } from "./run-cli.js";

/** Eight bytes standing in for an image. */
const PIXELS = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** A server whose `chart` tool answers an image and a table of rows. */
function chartServer(): Server {
  return new Server("charts", {
    onListTools: () => ({
      tools: [{ name: "chart", description: "Draws a chart", inputSchema: { type: "object" } }],
    }),
    onCallTool: () => ({
      content: [{ type: "image", data: PIXELS.toString("base64"), mimeType: "image/png" }],
      structuredContent: {
        rows: [
          { city: "Paris", temp: 21 },
          { city: "Oslo", temp: 12 },
        ],
      },
    }),
  });
}

describe("tsmcp <target> at a terminal", () => {
  it("lists what the server offers, runs a tool with a form and a question, and exits on Ctrl-D", async () => {
    const term = onTerminal([await httpExample(createDocsServer())]);
    await term.waitFor("docs (2026-07-28)");
    await term.waitFor("● tool echo");
    await term.waitFor("○ tool provision");
    await term.waitFor("○ prompt briefing");
    term.type("provi");
    await term.waitFor("(1 match)");
    term.type(KEY.enter);
    await term.waitFor("provision(name*: string (non-empty))");
    await term.waitFor("◆  name");
    term.type(`orders${KEY.enter}`);
    await term.waitFor("round 1 · region: Which region should orders live in?");
    await term.waitFor("● eu-west-1");
    term.type(KEY.enter);
    await term.waitFor("round 2 · confirm: Create orders in eu-west-1?");
    await term.waitFor("Yes / ● No");
    term.type("y");
    await term.waitFor("Provisioned orders in eu-west-1 for tsmcp-cli");
    await term.waitFor("Search:");
    term.type("history");
    await term.waitFor("(1 match)");
    term.type(KEY.enter);
    await term.waitFor('1. call provision {"name":"orders"} -> ok');
    await term.waitFor("Search:");
    term.type(KEY.ctrlD);
    await term.waitFor("1 call this session");
    expect(await term.exited).toBe(0);
  });

  it("shows structured content as a table and saves an image to a file it names", async () => {
    const term = onTerminal([await httpExample(chartServer())]);
    await term.waitFor("● tool chart");
    term.type(KEY.enter);
    await term.waitFor(/\[image saved to (\S+) \(image\/png, 8 B\)\]/);
    const path = /\[image saved to (\S+) \(image\/png/.exec(term.screen())?.[1] as string;
    expect(readFileSync(path)).toEqual(PIXELS);
    await term.waitFor("city   temp");
    await term.waitFor(/Paris {2}21/);
    await term.waitFor("Search:");
    term.type(KEY.ctrlD);
    expect(await term.exited).toBe(0);
  });
});

describe("tsmcp <target> without a terminal", () => {
  it("says the session needs a terminal and names the commands instead (exit 2)", async () => {
    const run = await tsmcp([await httpExample(createDocsServer())]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("tsmcp <target> opens an interactive session at a terminal");
  });

  it("names a word that is no command", async () => {
    const run = await tsmcp(["tool", "http://127.0.0.1:9/mcp"]);
    expect(run).toMatchObject({ code: 2, stderr: "unknown command 'tool' (see tsmcp --help)\n" });
  });

  it("--help names the interactive session and the exit code table", async () => {
    const run = await tsmcp(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Run tsmcp <target> at a terminal for an interactive session");
    expect(run.stdout).toMatch(/Exit codes:\n {2}0 {4}done\n {2}1 {4}the tool answered isError/);
    expect(run.stdout).toMatch(/\n {2}2 {4}a usage mistake; a missing argument/);
    expect(run.stdout).toMatch(/\n {2}130 {2}Ctrl-C while a task is followed/);
    expect(run.stdout).toContain("-q, --quiet");
  });
});
