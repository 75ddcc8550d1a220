import { InputRequiredRoundsExceededError, RequestTimeoutError } from "tsmcp/client";
import { SkillVerificationError } from "tsmcp/skills";
import { McpError } from "tsmcp/types";
import { describe, expect, it } from "vitest";
import { failure } from "./program.js";

describe("failure", () => {
  it("words the round cap and timeouts for the command line, not for library users", () => {
    const rounds = failure(new InputRequiredRoundsExceededError(10, "tools/call"));
    expect(rounds.code).toBe(1);
    expect(rounds.message).toContain("kept asking for input for more than 10 rounds");
    expect(rounds.message).not.toContain("inputRequiredMaxRounds");
    expect(failure(new RequestTimeoutError("tools/list", 5))).toMatchObject({
      code: 1,
      message: "timed out after 5 ms (tools/list); raise --timeout",
    });
  });

  it("gives a protocol error's code, message and data as the JSON error", () => {
    const error = new McpError(-32602, "Unknown tool: x", { tool: "x" });
    expect(failure(error)).toEqual({
      code: 1,
      message:
        "error -32602: Unknown tool: x; check the name and arguments: tsmcp tools <target> shows each tool's signature",
      error: { code: -32602, message: "Unknown tool: x", data: { tool: "x" } },
    });
  });

  it("names what failed and where, and the next step, by the kind of failure", () => {
    const at = (action: string) => ({ action, server: "http://h/mcp" });
    expect(failure(new McpError(-32602, "Resource not found"), [], at("read notes://9")).message).toBe(
      "read notes://9 at http://h/mcp: error -32602: Resource not found; check the URI: " +
        "tsmcp resources http://h/mcp and tsmcp templates http://h/mcp list what can be read",
    );
    expect(failure(new McpError(-32601, "Method not found"), [], at("prompt x")).message).toBe(
      "prompt x at http://h/mcp: error -32601: Method not found; the server does not offer this: " +
        "tsmcp discover http://h/mcp shows what it does",
    );
    expect(failure(new McpError(-32603, "boom"), [], at("call x")).message).toBe(
      "call x at http://h/mcp: error -32603: boom; run again with -v to see each round (-vv shows each message)",
    );
  });

  it("names the failed check of a refused skill, with reason and URIs as the JSON error's data", () => {
    const refused = failure(
      new SkillVerificationError(
        "size",
        "skill://pdf/SKILL.md",
        "skill://pdf/SKILL.md",
        "read 10 bytes, the manifest says 9",
      ),
    );
    expect(refused).toEqual({
      code: 1,
      message:
        "refused: Skill skill://pdf/SKILL.md: skill://pdf/SKILL.md failed size verification: read 10 bytes, the manifest says 9",
      error: {
        code: "SkillVerificationError",
        message:
          "Skill skill://pdf/SKILL.md: skill://pdf/SKILL.md failed size verification: read 10 bytes, the manifest says 9",
        data: { reason: "size", uri: "skill://pdf/SKILL.md", skillUri: "skill://pdf/SKILL.md" },
      },
    });
  });
});
