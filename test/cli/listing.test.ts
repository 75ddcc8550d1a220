/**
 * `tsmcp tools`, `prompts`, `resources` and `templates` against the guides' example server
 * (examples/docs/server.ts) over Streamable HTTP, in a child process: each entry with its title,
 * a signature with types, bounds and required marks, and its description; `--json` unchanged.
 */
import { describe, expect, it } from "vitest";
import { createDocsServer } from "../../examples/docs/server.js";
import { httpExample, tsmcp } from "./run-cli.js";

describe("tsmcp listings against the guides' server", () => {
  it("prints each tool's signature with types", async () => {
    const run = await tsmcp(["tools", await httpExample(createDocsServer())]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("echo\n  echo(text*: string)\n\n");
    expect(run.stdout).toContain(
      "import-rows\n  import-rows(rows*: integer >= 1)\n  Imports rows, reporting progress.\n",
    );
    expect(run.stdout).toContain("add\n  add(a*: number, b*: number)\n");
    expect(run.stdout).toContain("provision\n  provision(name*: string (non-empty))\n");
  });

  it("prints prompts with their arguments, resources and templates with their types", async () => {
    const url = await httpExample(createDocsServer());
    const [prompts, resources, templates] = await Promise.all(
      ["prompts", "resources", "templates"].map((command) => tsmcp([command, url])),
    );
    expect(prompts?.stdout).toContain(
      "briefing\n  briefing(team*: string, tone: string)\n  A status briefing for one team.\n",
    );
    expect(resources?.stdout).toContain("notes://1 — Note 1\n  text/plain\n");
    expect(templates?.stdout).toContain("notes://{id}\n  text/plain\n");
  });

  it("leaves --json as the server's listing", async () => {
    const run = await tsmcp(["--json", "tools", await httpExample(createDocsServer())]);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string; inputSchema: unknown }[] };
    expect(tools.find((tool) => tool.name === "add")?.inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
  });
});
