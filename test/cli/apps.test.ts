/**
 * `tsmcp tools` against the MCP Apps counter of examples/apps, in a child process over Streamable
 * HTTP: the tools that carry a UI are marked with their `ui://` resource (and `app only` when the
 * model may not see them); `--json` keeps each tool's `_meta` as the server sent it.
 */
import { describe, expect, it } from "vitest";
import { createCounterServer } from "../../examples/apps/counter.js";
import { httpExample, tsmcp } from "./run-cli.js";

describe("tsmcp tools and MCP Apps", () => {
  it("marks the tools that carry a UI", async () => {
    const run = await tsmcp(["tools", await httpExample(createCounterServer().mcp)]);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toBe(
      "show_counter  [ui ui://counter/view]\n  show_counter()\n  Shows the counter\n\n" +
        "increment  [ui ui://counter/view, app only]\n  increment(by*: integer >= 1)\n  Adds to the counter\n",
    );
  });

  it("keeps each tool's _meta with --json", async () => {
    const run = await tsmcp(["--json", "tools", await httpExample(createCounterServer().mcp)]);
    expect(run.code).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string; _meta?: unknown }[] };
    expect(tools.map((tool) => [tool.name, tool._meta])).toEqual([
      ["show_counter", { ui: { resourceUri: "ui://counter/view" }, "ui/resourceUri": "ui://counter/view" }],
      [
        "increment",
        {
          ui: { resourceUri: "ui://counter/view", visibility: ["app"] },
          "ui/resourceUri": "ui://counter/view",
        },
      ],
    ]);
  });
});
