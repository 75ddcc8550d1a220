/**
 * One side's recording handle: the tracer and the instruments a server or a client records
 * through, built once per `Server`/`Client` from the OpenTelemetry API (found or handed over, see
 * `api.ts`) and the `telemetry` option. `undefined` where nothing is to be recorded, so the hot
 * path costs one comparison when telemetry is off.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ §Metrics
 */
import type { Histogram, Meter, MeterProvider, Tracer, TracerProvider } from "@opentelemetry/api";
import { type OtelApi, openTelemetry } from "./api.js";
import { DURATION_BUCKETS_S, INSTRUMENTATION_SCOPE, METRICS } from "./attributes.js";
import type { TelemetryOption, TelemetryOptions } from "./options.js";

export { INSTRUMENTATION_SCOPE };

/** The histograms one side records (the side picks its operation and session durations). */
export interface Instruments {
  /** `mcp.{side}.operation.duration`, seconds. */
  readonly operationDuration: Histogram;
  /** `mcp.{side}.session.duration`, seconds. */
  readonly sessionDuration: Histogram;
  /** `tsmcp.mrtr.rounds`, rounds per multi round-trip call. */
  readonly rounds: Histogram;
}

/** The side that records: names the operation and session duration metrics. */
export type TelemetrySide = "server" | "client";

/**
 * A side's tracer and instruments. The tracer is taken once (the global one is a proxy that
 * follows a provider registered later); the meter is taken again whenever the global meter
 * provider changes, since a meter taken before registration records nothing.
 */
export class Telemetry {
  readonly api: OtelApi;
  readonly side: TelemetrySide;
  readonly tracer: Tracer;
  readonly #version: string;
  readonly #meterProvider: MeterProvider | undefined;
  #instrumentsFrom: MeterProvider | undefined;
  #instruments: Instruments | undefined;

  /** True when the option named a provider: recording never depends on the global ones then. */
  readonly #given: boolean;
  /** The global meter provider last looked at, and whether it records (is not the API's no-op one). */
  #meterSeen: MeterProvider | undefined;
  #meterRecords = false;

  constructor(api: OtelApi, side: TelemetrySide, version: string, options: TelemetryOptions = {}) {
    this.api = api;
    this.side = side;
    this.#version = version;
    const tracerProvider =
      (options.tracerProvider as TracerProvider | undefined) ?? api.trace.getTracerProvider();
    this.tracer = tracerProvider.getTracer(INSTRUMENTATION_SCOPE, version);
    this.#meterProvider = options.meterProvider as MeterProvider | undefined;
    this.#given = options.tracerProvider !== undefined || options.meterProvider !== undefined;
  }

  /**
   * Whether anything records: a provider was given, or a tracer provider or a meter provider is
   * registered globally. False with the API present and nothing registered, so a request then
   * costs what it costs with telemetry off. Cheap enough to ask per request (a field read and two
   * identity checks); a provider registered later is seen at the next request.
   */
  recording(): boolean {
    if (this.#given) return true;
    const { api } = this;
    // An API copy without these (older than tsmcp expects) cannot tell: record.
    if (typeof api.ProxyTracerProvider !== "function" || typeof api.createNoopMeter !== "function")
      return true;
    const tracerProvider = api.trace.getTracerProvider();
    if (!(tracerProvider instanceof api.ProxyTracerProvider)) return true;
    if (tracerProvider.getDelegate() !== noopTracerProvider(api)) return true;
    const meterProvider = api.metrics.getMeterProvider();
    if (meterProvider !== this.#meterSeen) {
      this.#meterSeen = meterProvider;
      this.#meterRecords = !(meterProvider.getMeter(INSTRUMENTATION_SCOPE) instanceof noopMeterClass(api));
    }
    return this.#meterRecords;
  }

  /** The histograms of this side, from the current meter provider. */
  instruments(): Instruments {
    const provider = this.#meterProvider ?? this.api.metrics.getMeterProvider();
    if (this.#instruments === undefined || this.#instrumentsFrom !== provider) {
      this.#instruments = createInstruments(
        provider.getMeter(INSTRUMENTATION_SCOPE, this.#version),
        this.side,
      );
      this.#instrumentsFrom = provider;
    }
    return this.#instruments;
  }
}

const noopTracerProviders = new WeakMap<OtelApi, TracerProvider>();

/** The API's no-op tracer provider: what a proxy with no delegate hands out. */
function noopTracerProvider(api: OtelApi): TracerProvider {
  let noop = noopTracerProviders.get(api);
  if (noop === undefined) {
    noop = new api.ProxyTracerProvider().getDelegate();
    noopTracerProviders.set(api, noop);
  }
  return noop;
}

/** The class of the API's no-op meter: what the meter provider hands out when none is registered. */
function noopMeterClass(api: OtelApi): abstract new (...args: never[]) => unknown {
  return api.createNoopMeter().constructor as abstract new (
    ...args: never[]
  ) => unknown;
}

function createInstruments(meter: Meter, side: TelemetrySide): Instruments {
  const seconds = { unit: "s", advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_S] } };
  return {
    operationDuration: meter.createHistogram(
      side === "server" ? METRICS.serverOperationDuration : METRICS.clientOperationDuration,
      {
        ...seconds,
        description:
          side === "server"
            ? "MCP request or notification duration as observed on the receiver"
            : "MCP request or notification duration as observed on the sender",
      },
    ),
    sessionDuration: meter.createHistogram(
      side === "server" ? METRICS.serverSessionDuration : METRICS.clientSessionDuration,
      { ...seconds, description: `The duration of the MCP session as observed on the MCP ${side}` },
    ),
    rounds: meter.createHistogram(METRICS.mrtrRounds, {
      unit: "{round}",
      description: "Rounds a multi round-trip call took until it completed",
      advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10] },
    }),
  };
}

/**
 * The recording handle for one server or client: `undefined` when `option` is `false` or there is
 * no OpenTelemetry API, so callers skip all recording with one check.
 */
export function telemetryFor(
  side: TelemetrySide,
  version: string,
  option: TelemetryOption | undefined,
): Telemetry | undefined {
  if (option === false) return undefined;
  const api = openTelemetry();
  if (api === undefined) return undefined;
  return new Telemetry(api, side, version, option === true || option === undefined ? {} : option);
}
