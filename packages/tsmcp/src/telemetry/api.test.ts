import * as otel from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { openTelemetry, resetOpenTelemetry, useOpenTelemetry } from "./api.js";
import { telemetryFor } from "./telemetry.js";

afterEach(() => resetOpenTelemetry());

describe("finding @opentelemetry/api", () => {
  it("finds the installed API by itself, sharing the global registry with the application's copy", () => {
    const api = openTelemetry();
    expect(api).toBeDefined();
    // Two copies (CommonJS, ESM) of one version read the same global providers.
    expect(api?.trace.getTracerProvider()).toBe(otel.trace.getTracerProvider());
  });

  it("records nothing when handed null, and refuses what is not the API", () => {
    useOpenTelemetry(null);
    expect(openTelemetry()).toBeUndefined();
    expect(telemetryFor("server", "1.0.0", true)).toBeUndefined();
    expect(() => useOpenTelemetry({ trace: {} })).toThrow(TypeError);
    useOpenTelemetry(otel);
    expect(openTelemetry()).toBe(otel);
  });

  it("builds no recording handle when the option is false", () => {
    expect(telemetryFor("client", "1.0.0", false)).toBeUndefined();
    expect(telemetryFor("client", "1.0.0", undefined)?.side).toBe("client");
  });
});
