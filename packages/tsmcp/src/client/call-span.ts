/**
 * One span for a whole multi round-trip call: an INTERNAL span named like its legs
 * (`tools/call provision`), the parent of each leg's CLIENT span (whose round it puts in the
 * context, see `ROUND_KEY`) and the context the callbacks answering `inputRequests` run in, so the
 * application's own spans nest under the call. On completion it records `tsmcp.mrtr.rounds` with
 * the method and the tool or prompt name (never the resource URI: a metric point carries only
 * low-cardinality attributes; the span keeps it).
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/; basic/patterns/mrtr.
 */
import type { Attributes, Context, Span } from "@opentelemetry/api";
import type { InputRequiredMethod } from "../protocol/methods.js";
import { SEMCONV, TSMCP_ATTRIBUTES } from "../telemetry/attributes.js";
import { resultTypeOf, spanNameOf, targetAttributes } from "../telemetry/targets.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import type { Fulfil, SendLeg } from "./input-required.js";
import { failSpan, ROUND_KEY } from "./request-span.js";

/** How the loop of one call is traced: each wraps what the loop runs (returned as is when off). */
export interface CallTracing {
  /** Wraps the function sending a leg, so each leg runs inside the call with its round. */
  legs<R>(send: SendLeg<R>): SendLeg<R>;
  /** Wraps the function answering an input request, so callbacks run inside the call. */
  callbacks(fulfil: Fulfil): Fulfil;
  /** Ends the call with the loop's outcome. */
  ended<R>(driven: Promise<R>): Promise<R>;
}

/** The tracing of a call while nothing records: hands back what it is given, allocating nothing. */
const UNTRACED: CallTracing = Object.freeze({
  legs: <R>(send: SendLeg<R>) => send,
  callbacks: (fulfil: Fulfil) => fulfil,
  ended: <R>(driven: Promise<R>) => driven,
});

/**
 * The tracing of one call of `method` on `target` (a tool or prompt name, or a resource URI): a
 * {@link CallSpan} started as a child of the active context when anything records, else one
 * shared object that wraps nothing.
 */
export function startCallSpan(
  telemetry: Telemetry | undefined,
  method: InputRequiredMethod,
  target: string,
): CallTracing {
  return telemetry === undefined || !telemetry.recording()
    ? UNTRACED
    : new CallSpan(telemetry, method, target);
}

/** The span of one call the client runs the multi round-trip loop for. */
export class CallSpan implements CallTracing {
  readonly #telemetry: Telemetry;
  readonly #span: Span;
  readonly #context: Context;
  /** What the call's metric points carry: the method and the tool or prompt name. */
  readonly #metricAttributes: Attributes;
  /** Legs sent so far. */
  #legs = 0;

  /** Starts the call's span as a child of the active context. */
  constructor(telemetry: Telemetry, method: InputRequiredMethod, target: string) {
    this.#telemetry = telemetry;
    const { api } = telemetry;
    const name = method === "resources/read" ? undefined : target;
    this.#metricAttributes = targetAttributes(method, name);
    const attributes = targetAttributes(method, name);
    if (name === undefined) attributes[SEMCONV.resourceUri] = target;
    const parent = api.context.active();
    this.#span = telemetry.tracer.startSpan(
      spanNameOf(method, name),
      { kind: api.SpanKind.INTERNAL, attributes },
      parent,
    );
    this.#context = api.trace.setSpan(parent, this.#span);
  }

  legs<R>(send: SendLeg<R>): SendLeg<R> {
    return (inputResponses, requestState) => {
      this.#legs += 1;
      const context = this.#context.setValue(ROUND_KEY, this.#legs);
      return this.#telemetry.api.context.with(context, send, undefined, inputResponses, requestState);
    };
  }

  callbacks(fulfil: Fulfil): Fulfil {
    return (request, key, round, abort) =>
      this.#telemetry.api.context.with(this.#context, fulfil, undefined, request, key, round, abort);
  }

  ended<R>(driven: Promise<R>): Promise<R> {
    return driven.then(
      (result) => {
        this.#complete(result);
        return result;
      },
      (error: unknown) => {
        this.#fail(error);
        throw error;
      },
    );
  }

  /** Ends the call with its final result, and records the rounds it took (the legs sent). */
  #complete(result: unknown): void {
    const resultType =
      typeof result === "object" && result !== null
        ? resultTypeOf(result as Record<string, unknown>)
        : "complete";
    const toolError = (result as { isError?: unknown } | undefined)?.isError === true;
    if (this.#span.isRecording()) {
      this.#span.setAttribute(TSMCP_ATTRIBUTES.round, this.#legs);
      this.#span.setAttribute(TSMCP_ATTRIBUTES.resultType, resultType);
      if (toolError) {
        this.#span.setAttribute(SEMCONV.errorType, "tool_error");
        this.#span.setStatus({ code: this.#telemetry.api.SpanStatusCode.ERROR });
      }
    }
    this.#span.end();
    this.#telemetry.instruments().rounds.record(this.#legs, this.#metricAttributes);
  }

  /** Ends the call with its failure. */
  #fail(error: unknown): void {
    if (this.#span.isRecording()) this.#span.setAttribute(TSMCP_ATTRIBUTES.round, this.#legs);
    failSpan(this.#telemetry, this.#span, {}, error);
    this.#span.end();
  }
}
