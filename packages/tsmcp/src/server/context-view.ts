/**
 * A request context read through to another, field by field: the base of the contexts built over
 * the low-level request context for one request (a middleware's `request.with`, an `MCPServer`
 * handler's `Context`). Nothing is copied; a subclass adds or overrides what it changes.
 */
import type { LoggingLevel } from "../protocol/schema/base.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from "../protocol/schema/input.js";
import type { BackChannelRequestOptions, RequestEnvironment } from "../transport/dispatcher.js";
import {
  type CarriesEnvironment,
  ENVIRONMENT,
  environmentOf,
  type ListRootsOptions,
  type ProgressUpdate,
  type RequestContext,
} from "./context.js";
import {
  type CarriesValues,
  type ContextKey,
  type ContextValues,
  findValue,
  getValue,
  VALUES,
  valuesOf,
} from "./context-key.js";

/** A request context that reads every field and method through to `base`. */
export class ContextView implements RequestContext, CarriesEnvironment, CarriesValues {
  /** The context read through to. */
  protected readonly base: RequestContext;

  constructor(base: RequestContext) {
    this.base = base;
  }

  get [ENVIRONMENT](): RequestEnvironment {
    return environmentOf(this.base);
  }
  get [VALUES](): ContextValues | undefined {
    return valuesOf(this.base);
  }
  get<T>(key: ContextKey<T>): T {
    return getValue(this[VALUES], key);
  }
  find<T>(key: ContextKey<T>): T | undefined {
    return findValue(this[VALUES], key);
  }
  get method() {
    return this.base.method;
  }
  get requestId() {
    return this.base.requestId;
  }
  get protocolVersion() {
    return this.base.protocolVersion;
  }
  get clientInfo() {
    return this.base.clientInfo;
  }
  get clientCapabilities() {
    return this.base.clientCapabilities;
  }
  get meta() {
    return this.base.meta;
  }
  get auth() {
    return this.base.auth;
  }
  get signal() {
    return this.base.signal;
  }
  get logLevel() {
    return this.base.logLevel;
  }
  get session() {
    return this.base.session;
  }
  sendProgress(update: ProgressUpdate): void {
    this.base.sendProgress(update);
  }
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.base.log(level, data, logger);
  }
  elicit(params: ElicitRequestParams, options?: BackChannelRequestOptions): Promise<ElicitResult> {
    return this.base.elicit(params, options);
  }
  createMessage(
    params: CreateMessageRequestParams,
    options?: BackChannelRequestOptions,
  ): Promise<CreateMessageResult> {
    return this.base.createMessage(params, options);
  }
  listRoots(options?: ListRootsOptions): Promise<ListRootsResult> {
    return this.base.listRoots(options);
  }
  ping(options?: BackChannelRequestOptions): Promise<void> {
    return this.base.ping(options);
  }
  notifyElicitationComplete(elicitationId: string): void {
    this.base.notifyElicitationComplete(elicitationId);
  }
  closeSseStream(): void {
    this.base.closeSseStream();
  }
}
