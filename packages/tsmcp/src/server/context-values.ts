/**
 * The request context a middleware's `request.with(key, value)` hands on: the context it was called
 * on, read through field by field, plus one more request value. The context it wraps is unchanged,
 * so a middleware earlier in the chain never sees what a later one provided.
 */
import type { LoggingLevel } from "../protocol/schema/base.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
} from "../protocol/schema/input.js";
import type { BackChannelRequestOptions, RequestEnvironment } from "../transport/dispatcher.js";
import {
  type CarriesEnvironment,
  ENVIRONMENT,
  environmentOf,
  type ProgressUpdate,
  type RequestContext,
} from "./context.js";
import {
  addValue,
  type CarriesValues,
  type ContextKey,
  type ContextValues,
  findValue,
  getValue,
  VALUES,
  valuesOf,
} from "./context-key.js";
import { attachRequestTrace, requestTraceOf } from "./request-trace.js";

/** A request context with request values, over the context it wraps. */
class ValuedContext implements RequestContext, CarriesEnvironment, CarriesValues {
  readonly #base: RequestContext;
  readonly [VALUES]: ContextValues;

  constructor(base: RequestContext, values: ContextValues) {
    this.#base = base;
    this[VALUES] = values;
    // The request's trace record follows the request, whichever context carries it on.
    const trace = requestTraceOf(base);
    if (trace !== undefined) attachRequestTrace(this, trace);
  }

  get [ENVIRONMENT](): RequestEnvironment {
    return environmentOf(this.#base);
  }
  get method() {
    return this.#base.method;
  }
  get requestId() {
    return this.#base.requestId;
  }
  get protocolVersion() {
    return this.#base.protocolVersion;
  }
  get clientInfo() {
    return this.#base.clientInfo;
  }
  get clientCapabilities() {
    return this.#base.clientCapabilities;
  }
  get meta() {
    return this.#base.meta;
  }
  get auth() {
    return this.#base.auth;
  }
  get signal() {
    return this.#base.signal;
  }
  get logLevel() {
    return this.#base.logLevel;
  }
  get session() {
    return this.#base.session;
  }
  sendProgress(update: ProgressUpdate): void {
    this.#base.sendProgress(update);
  }
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.#base.log(level, data, logger);
  }
  elicit(params: ElicitRequestParams, options?: BackChannelRequestOptions): Promise<ElicitResult> {
    return this.#base.elicit(params, options);
  }
  createMessage(
    params: CreateMessageRequestParams,
    options?: BackChannelRequestOptions,
  ): Promise<CreateMessageResult> {
    return this.#base.createMessage(params, options);
  }
  listRoots(options?: BackChannelRequestOptions) {
    return this.#base.listRoots(options);
  }
  ping(options?: BackChannelRequestOptions): Promise<void> {
    return this.#base.ping(options);
  }
  notifyElicitationComplete(elicitationId: string): void {
    this.#base.notifyElicitationComplete(elicitationId);
  }
  closeSseStream(): void {
    this.#base.closeSseStream();
  }
  /** The context under every value: wrapping a valued context again wraps what it wraps. */
  static baseOf(context: RequestContext): RequestContext {
    return context instanceof ValuedContext ? context.#base : context;
  }
  get<T>(key: ContextKey<T>): T {
    return getValue(this[VALUES], key);
  }
  find<T>(key: ContextKey<T>): T | undefined {
    return findValue(this[VALUES], key);
  }
}

/**
 * A new context over `context` that also carries `value` under `key` (`context` is unchanged).
 *
 * @throws TypeError when `key` is not a `ContextKey`.
 */
export function contextWith<T>(context: RequestContext, key: ContextKey<T>, value: T): RequestContext {
  return new ValuedContext(ValuedContext.baseOf(context), addValue(valuesOf(context), key, value));
}

/**
 * `to` carrying the request values of `from` (`to` itself when `from` has none): a context built
 * afresh for the same request, as a task's, keeps what middleware provided.
 */
export function withValuesOf(from: RequestContext, to: RequestContext): RequestContext {
  const values = valuesOf(from);
  return values === undefined ? to : new ValuedContext(ValuedContext.baseOf(to), values);
}
