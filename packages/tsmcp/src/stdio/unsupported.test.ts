import { describe, expect, it } from "vitest";
import * as real from "./index.js";
import * as stub from "./unsupported.js";

describe("tsmcp/stdio outside Node.js", () => {
  it("exports every value the real entry exports, and only those (plus its message)", () => {
    const names = Object.keys(stub).filter((name) => name !== "STDIO_NEEDS_NODE");
    expect(names.sort()).toEqual(Object.keys(real).sort());
  });

  it("throws a clear Error from every class and function", () => {
    const message = "tsmcp/stdio needs Node.js (a child process); pass a Transport instead";
    expect(stub.STDIO_NEEDS_NODE).toBe(message);
    const values = Object.entries(stub).filter(([, value]) => typeof value === "function");
    expect(values.map(([name]) => name).sort()).toEqual([
      "LineDecoder",
      "LineTooLongError",
      "ServerProcessExitedError",
      "StdioClientTransport",
      "defaultInheritedEnvironment",
      "serializeMessage",
      "serveStdio",
    ]);
    for (const [name, value] of values) {
      const use = /^[A-Z]/.test(name)
        ? () => new (value as new () => unknown)()
        : () => (value as () => unknown)();
      expect(use, name).toThrow(new Error(message));
    }
  });

  it("keeps the real entry's numeric defaults", () => {
    expect(stub.DEFAULT_MAX_LINE_BYTES).toBe(real.DEFAULT_MAX_LINE_BYTES);
    expect(stub.DEFAULT_CLOSE_GRACE_PERIOD_MS).toBe(real.DEFAULT_CLOSE_GRACE_PERIOD_MS);
    expect(stub.DEFAULT_TERMINATE_GRACE_PERIOD_MS).toBe(real.DEFAULT_TERMINATE_GRACE_PERIOD_MS);
  });
});
