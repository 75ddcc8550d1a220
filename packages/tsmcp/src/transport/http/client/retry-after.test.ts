import { describe, expect, it } from "vitest";
import { httpDateMs, retryAfterMs } from "./retry-after.js";

const NOW = Date.UTC(2026, 6, 28, 12, 0, 0);
const SUNDAY_1994 = Date.UTC(1994, 10, 6, 8, 49, 37);

describe("retryAfterMs", () => {
  it("reads delta-seconds as milliseconds, spaces around it ignored", () => {
    expect(retryAfterMs("0", null, NOW)).toBe(0);
    expect(retryAfterMs(" 120 ", null, NOW)).toBe(120_000);
  });

  it("measures an HTTP-date from the local clock when the answer has no Date header", () => {
    expect(retryAfterMs("Tue, 28 Jul 2026 12:00:03 GMT", null, NOW)).toBe(3000);
  });

  it("measures an HTTP-date from the answer's Date header when it has a valid one", () => {
    expect(retryAfterMs("Tue, 28 Jul 2026 12:00:03 GMT", "Tue, 28 Jul 2026 12:00:01 GMT", NOW)).toBe(2000);
    expect(retryAfterMs("Tue, 28 Jul 2026 12:00:03 GMT", "yesterday", NOW)).toBe(3000);
  });

  it("asks for no wait when the HTTP-date has passed", () => {
    expect(retryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", null, NOW)).toBe(0);
  });

  it("reads neither a missing header nor one that is no delta-seconds or HTTP-date", () => {
    for (const value of [null, "", "-1", "1.5", "1e3", "soon", "0x10", "Tue, 28 Jul 2026 12:00:03 UTC"]) {
      expect(retryAfterMs(value, null, NOW)).toBeUndefined();
    }
  });
});

describe("httpDateMs", () => {
  it("reads the three forms of RFC 9110 as the same moment", () => {
    expect(httpDateMs("Sun, 06 Nov 1994 08:49:37 GMT", NOW)).toBe(SUNDAY_1994);
    expect(httpDateMs("Sunday, 06-Nov-94 08:49:37 GMT", NOW)).toBe(SUNDAY_1994);
    expect(httpDateMs("Sun Nov  6 08:49:37 1994", NOW)).toBe(SUNDAY_1994);
  });

  it("takes a two-digit year more than 50 years ahead as the last past one", () => {
    expect(httpDateMs("Tuesday, 01-Jan-30 00:00:00 GMT", NOW)).toBe(Date.UTC(2030, 0, 1));
    expect(httpDateMs("Tuesday, 01-Jan-80 00:00:00 GMT", NOW)).toBe(Date.UTC(1980, 0, 1));
  });

  it("refuses a day, hour or minute that does not exist", () => {
    for (const value of [
      "Sat, 31 Feb 2026 00:00:00 GMT",
      "Sat, 00 Feb 2026 00:00:00 GMT",
      "Sat, 01 Feb 2026 24:00:00 GMT",
      "Sat, 01 Feb 2026 00:60:00 GMT",
    ]) {
      expect(httpDateMs(value, NOW)).toBeUndefined();
    }
  });
});
