/** When the edge tests run, skip, or fail: in CI a runtime that is not there never passes skipped. */
import { describe, expect, it } from "vitest";
import { isCi, NPM_INSTALL_FLAGS, runtimeVerdict } from "./install.js";

const missing = { ok: false, reason: "no registry" } as const;
const installed = { ok: true, binary: "/bin/true", version: "1" } as const;

describe("the runtime harness", () => {
  it("runs an installed runtime, in CI or not", () => {
    expect(runtimeVerdict(installed, {})).toBe("run");
    expect(runtimeVerdict(installed, { CI: "true" })).toBe("run");
  });

  it("fails a missing runtime in CI and skips it elsewhere", () => {
    expect(runtimeVerdict(missing, { CI: "true" })).toBe("fail");
    expect(runtimeVerdict(missing, { CI: "1" })).toBe("fail");
    expect(runtimeVerdict(missing, {})).toBe("skip");
    expect(runtimeVerdict(missing, { CI: "false" })).toBe("skip");
    expect(runtimeVerdict(missing, { CI: "0" })).toBe("skip");
    expect(runtimeVerdict(missing, { CI: "" })).toBe("skip");
  });

  it("reads CI the way CI services set it", () => {
    expect(isCi({ CI: "true" })).toBe(true);
    expect(isCi({ CI: "TRUE" })).toBe(true);
    expect(isCi({})).toBe(false);
  });

  it("never gives npm a maximum retry wait below its minimum (npm 11 refuses the install)", () => {
    const value = (flag: string): number | undefined => {
      const given = NPM_INSTALL_FLAGS.find((f) => f.startsWith(`--${flag}=`));
      return given === undefined ? undefined : Number(given.split("=")[1]);
    };
    // npm's defaults: 10 s minimum, 60 s maximum; a maximum below 10 s needs a smaller minimum.
    const min = value("fetch-retry-mintimeout") ?? 10_000;
    const max = value("fetch-retry-maxtimeout") ?? 60_000;
    expect(min).toBeLessThanOrEqual(max);
  });
});
