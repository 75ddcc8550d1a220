import { describe, expect, it } from "vitest";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, parseTarget, UsageError } from "./target.js";

describe("parseTarget", () => {
  it("reads an http(s) URL as a Streamable HTTP target", () => {
    expect(parseTarget("https://example.com/mcp")).toEqual({
      kind: "url",
      url: new URL("https://example.com/mcp"),
    });
  });

  it("splits a command line with POSIX quoting, expanding variables from the given environment", () => {
    const target = parseTarget(`node "my server.js" --name 'a b' $HOME_DIR`, { HOME_DIR: "/home/x" });
    expect(target).toMatchObject({
      kind: "command",
      command: { command: "node", args: ["my server.js", "--name", "a b", "/home/x"] },
    });
  });

  it("refuses shell operators, an empty line and a URL that does not parse, as usage mistakes", () => {
    expect(() => parseTarget("node a.js | tee log")).toThrow(/shell operator \(\|\)/);
    expect(() => parseTarget("node a.js > out")).toThrow(UsageError);
    expect(() => parseTarget("  ")).toThrow(/empty/);
    expect(() => parseTarget("http://exa mple.com")).toThrow(/not a valid URL/);
  });

  it("pins the exit codes", () => {
    expect([EXIT_OK, EXIT_FAILURE, EXIT_USAGE]).toEqual([0, 1, 2]);
  });
});
