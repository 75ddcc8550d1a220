/**
 * The seam between the server's request spans and the requestState boundary: the span of one
 * request (or multi round-trip leg) is recorded by the dispatcher; the boundary, which alone can
 * open a sealed `requestState`, tells it which first leg the request continues, and asks it what
 * trace context to seal into the next round's state. So a client that propagates no trace context
 * still gets one trace per multi round-trip call on the server, on whichever replica each leg lands.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ §Context propagation.
 */
import type { RequestContext } from "./context.js";

/**
 * What a sealed `requestState` carries when the call's first leg had no valid span context (a
 * server recording metrics only): the round alone.
 */
export interface CarriedRound {
  /** Never set: a carried round holds no trace context. */
  readonly traceId?: undefined;
  /** The round the state was minted in: 1 on the first leg's answer; the next leg is `round + 1`. */
  readonly round: number;
}

/**
 * The trace context a sealed `requestState` carries from a call's first leg to its next legs: any
 * valid span context, sampled or not (a sampled-out first leg's flags say so, and the next legs keep
 * the sampler's decision and the trace id).
 */
export interface CarriedTrace {
  /** The first leg's trace id, 32 lowercase hex digits. */
  readonly traceId: string;
  /** The first leg's server span id, 16 lowercase hex digits. */
  readonly spanId: string;
  /** The first leg's trace flags (bit 0: sampled; 0 for a first leg the sampler sampled out). */
  readonly traceFlags: number;
  /** The round the state was minted in: 1 on the first leg's answer; the next leg is `round + 1`. */
  readonly round: number;
}

/** What a sealed `requestState` carries to the next leg: a trace context and round, or the round alone. */
export type Carried = CarriedTrace | CarriedRound;

/** One request's trace record, as the requestState boundary sees it. */
export interface RequestTrace {
  /** This leg's round: 1 unless {@link RequestTrace.continueFrom} said otherwise. */
  readonly round: number;
  /**
   * Called by the boundary once the request's `requestState` opened and carried `carried`: this
   * leg's round becomes `carried.round + 1`, and when it carries a trace context this leg's span
   * joins the first leg's trace (as parent when the request propagated no context) and links to it.
   */
  continueFrom(carried: Carried): void;
  /**
   * What to seal into the state of the `InputRequiredResult` this leg answers, with this leg's
   * round: the first leg's span context (carried, or this leg's own span's when it is the first and
   * its context is valid, recording or not), else the round alone; `undefined` to carry nothing.
   */
  toCarry(): Carried | undefined;
}

const traces = new WeakMap<object, RequestTrace>();

/** Ties `trace` to the request `context` (the dispatcher, when it starts recording a request). */
export function attachRequestTrace(context: RequestContext, trace: RequestTrace): void {
  traces.set(context, trace);
}

/** The trace record of the request `context`, or `undefined` when nothing records it. */
export function requestTraceOf(context: RequestContext): RequestTrace | undefined {
  return traces.get(context);
}
