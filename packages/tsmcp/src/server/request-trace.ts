/**
 * The seam between the server's request spans and the requestState boundary: the span of one
 * request (or multi round-trip leg) is recorded by the dispatcher; the boundary, which alone can
 * open a sealed `requestState`, tells it which first leg the request continues, and asks it what
 * trace context to seal into the next round's state. So a client that propagates no trace context
 * still gets one trace per multi round-trip call on the server, on whichever replica each leg lands.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ §Context propagation.
 */
import type { RequestContext } from "./context.js";

/** The trace context a sealed `requestState` carries from a call's first leg to its next legs. */
export interface CarriedTrace {
  /** The first leg's trace id, 32 lowercase hex digits. */
  readonly traceId: string;
  /** The first leg's server span id, 16 lowercase hex digits. */
  readonly spanId: string;
  /** The first leg's trace flags (bit 0: sampled). */
  readonly traceFlags: number;
  /** The round the state was minted in: 1 on the first leg's answer; the next leg is `round + 1`. */
  readonly round: number;
}

/** One request's trace record, as the requestState boundary sees it. */
export interface RequestTrace {
  /** This leg's round: 1 unless {@link RequestTrace.continueFrom} said otherwise. */
  readonly round: number;
  /**
   * Called by the boundary once the request's `requestState` opened and carried `carried`: this
   * leg's span joins the first leg's trace (as parent when the request propagated no context) and
   * links to it, and its round becomes `carried.round + 1`.
   */
  continueFrom(carried: CarriedTrace): void;
  /**
   * What to seal into the state of the `InputRequiredResult` this leg answers: the first leg's
   * context (carried, or this leg's own span when it is the first) with this leg's round, or
   * `undefined` when nothing is recorded (no valid span context).
   */
  toCarry(): CarriedTrace | undefined;
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
