import { afterEach, describe, expect, it, vi } from "vitest";
import { checkLogger, LOG_LEVELS, silentLogger, stderrLogger } from "./logger.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("stderrLogger", () => {
  it("writes warnings and errors as one [tsmcp] line each on stderr, fields as JSON", () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    stderrLogger.warn("slow", { ms: 5 });
    stderrLogger.error("broke", { error: new TypeError("bad") });
    stderrLogger.info("hidden");
    stderrLogger.debug("hidden");
    expect(write).toHaveBeenCalledTimes(2);
    expect(write.mock.calls[0]?.[0]).toBe('[tsmcp] warn slow {"ms":5}\n');
    expect(String(write.mock.calls[1]?.[0])).toMatch(
      /^\[tsmcp\] error broke \{"error":\{"name":"TypeError","message":"bad","stack":".*"\}\}\n$/,
    );
  });

  it("writes a line even when the fields cannot be serialised", () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    stderrLogger.error("cyclic", cyclic);
    expect(write).toHaveBeenCalledWith("[tsmcp] error cyclic [unserializable fields]\n");
  });
});

describe("checkLogger", () => {
  it("accepts an object with every method asked for", () => {
    expect(checkLogger(silentLogger, "Server")).toBe(silentLogger);
    const warnOnly = { warn() {} };
    expect(checkLogger(warnOnly, "Client", "logger", ["warn"])).toBe(warnOnly);
    expect(LOG_LEVELS).toEqual(["debug", "info", "warn", "error"]);
  });

  it("refuses anything else with a TypeError naming the owner, the option and the methods", () => {
    expect(() => checkLogger({}, "Server")).toThrow(
      new TypeError('Server option "logger" must have debug, info, warn and error methods'),
    );
    expect(() => checkLogger(null, "serveStdio", "logger", ["debug", "warn", "error"])).toThrow(
      new TypeError('serveStdio option "logger" must have debug, warn and error methods'),
    );
    expect(() => checkLogger({ warn: "no" }, "Client", "logger", ["warn"])).toThrow(
      new TypeError('Client option "logger" must have a warn method'),
    );
  });
});
