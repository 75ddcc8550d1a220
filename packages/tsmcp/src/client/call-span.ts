/**
 * One span for a whole multi round-trip call: an INTERNAL span named like its legs
 * (`tools/call provision`), the parent of each leg's CLIENT span (whose round it puts in the
 * context, see `ROUND_KEY`) and the context the callbacks answering `inputRequests` run in, so the
 * application's own spans nest under the call. On completion it records `tsmcp.mrtr.rounds`.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/; basic/patterns/mrtr.
 */
import type { Attributes, Context, Span } from "@opentelemetry/api";
import type { InputRequiredMethod } from "../protocol/methods.js";
import { SEMCONV, TSMCP_ATTRIBUTES } from "../telemetry/attributes.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import { failSpan, ROUND_KEY, resultTypeOf, spanName, targetAttributes } from "./request-span.js";

/** The span of one call the client runs the multi round-trip loop for. */
export class CallSpan {
  readonly #telemetry: Telemetry;
  readonly #span: Span;
  readonly #context: Context;
  readonly #attributes: Attributes;

  /** Starts the call's span as a child of the active context. */
  constructor(telemetry: Telemetry, method: InputRequiredMethod, target: string) {
    this.#telemetry = telemetry;
    const { api } = telemetry;
    const params = method === "resources/read" ? { uri: target } : { name: target };
    this.#attributes = targetAttributes(method, params);
    const parent = api.context.active();
    this.#span = telemetry.tracer.startSpan(
      spanName(method, params),
      { kind: api.SpanKind.INTERNAL, attributes: this.#attributes },
      parent,
    );
    this.#context = api.trace.setSpan(parent, this.#span);
  }

  /** Runs one leg (round `round`, 1 for the first) inside the call, so its span is the call's child. */
  leg<T>(round: number, send: () => T): T {
    return this.#telemetry.api.context.with(this.#context.setValue(ROUND_KEY, round), send);
  }

  /** Runs `work` (a callback answering an input request) inside the call's context. */
  within<T>(work: () => T): T {
    return this.#telemetry.api.context.with(this.#context, work);
  }

  /** Ends the call with its final result after `legs` legs, and records the rounds it took. */
  complete(result: unknown, legs: number): void {
    const resultType =
      typeof result === "object" && result !== null
        ? resultTypeOf(result as Record<string, unknown>)
        : "complete";
    const toolError = (result as { isError?: unknown } | undefined)?.isError === true;
    if (this.#span.isRecording()) {
      this.#span.setAttribute(TSMCP_ATTRIBUTES.round, legs);
      this.#span.setAttribute(TSMCP_ATTRIBUTES.resultType, resultType);
      if (toolError) {
        this.#span.setAttribute(SEMCONV.errorType, "tool_error");
        this.#span.setStatus({ code: this.#telemetry.api.SpanStatusCode.ERROR });
      }
    }
    this.#span.end();
    this.#telemetry.instruments().rounds.record(legs, this.#attributes);
  }

  /** Ends the call with its failure (after `legs` legs). */
  fail(error: unknown, legs: number): void {
    if (this.#span.isRecording()) this.#span.setAttribute(TSMCP_ATTRIBUTES.round, legs);
    failSpan(this.#telemetry, this.#span, {}, error);
    this.#span.end();
  }
}
