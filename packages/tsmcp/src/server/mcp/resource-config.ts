/**
 * What static resources and resource templates are registered with: their descriptive metadata,
 * per-resource cache hints, and (templates only) listing and completion. Checked once, at
 * registration. Spec: server/resources, server/utilities/caching.
 */
import type * as z from "zod";
import type { AnnotationsSchema, IconSchema } from "../../protocol/schema/base.js";
import type { Resource } from "../../protocol/schema/content.js";
import type { InputRequiredResult } from "../../protocol/schema/input.js";
import type { Awaitable } from "../handlers.js";
import { isPlainObject } from "../schema/json.js";
import { type CacheHint, checkCacheHint } from "../shaping.js";
import type { Completers } from "./completion.js";
import type { Context } from "./context.js";
import { checkDescriptor, descriptiveFields } from "./descriptor.js";
import type { ResourceContentsInput } from "./results.js";
import type { IsStaticUri, UriVariables } from "./uri-template.js";

/** Metadata every resource and template may carry. */
export interface ResourceMetadata {
  /** The name listed for it. Default: the URI (or URI template). */
  name?: string;
  /** Display name. */
  title?: string;
  /** What it holds, for the model. */
  description?: string;
  /** The MIME type of its contents; also each returned item's default `mimeType`. */
  mimeType?: string;
  /** Audience, priority, last modification. */
  annotations?: z.infer<typeof AnnotationsSchema>;
  /** Icons a client may show. */
  icons?: z.infer<typeof IconSchema>[];
  /** Extra `_meta` on the listed definition. */
  _meta?: Record<string, unknown>;
  /**
   * Cache hints for its `resources/read` results (`ttlMs` in milliseconds, `cacheScope`); unset
   * fields take the server's defaults.
   */
  cache?: Partial<CacheHint>;
  /**
   * OAuth scopes the request's access token must carry to read it (or, with `MCPServer`'s
   * `hideUnauthorized`, to see it in `resources/list` and `resources/templates/list`); as a tool's
   * `requiredScopes`. Default none.
   */
  requiredScopes?: readonly string[];
}

/** The configuration of a static resource (a URI without template expressions). */
export interface StaticResourceConfig extends ResourceMetadata {
  /** Size of its contents in bytes, when known. */
  size?: number;
}

/** A resource a template's `list` callback reports; `name` defaults to the URI. */
export type ListedResource = Omit<Resource, "name"> & { name?: string };

/** Enumerates the concrete resources of a template for `resources/list`. */
export type ResourceLister = (ctx: Context) => Awaitable<readonly ListedResource[]>;

/** The configuration of a resource template (a URI with RFC 6570 expressions). */
export interface TemplateResourceConfig<U extends string = string> extends ResourceMetadata {
  /** Lists the template's concrete resources in `resources/list` (none when omitted). */
  list?: ResourceLister;
  /** Completion for template variables, by name. */
  complete?: Completers<Extract<keyof UriVariables<U>, string>>;
}

/** The configuration of `mcp.resource(uri, ...)`: a template's when `uri` has expressions. */
export type ResourceConfig<U extends string> =
  IsStaticUri<U> extends true ? StaticResourceConfig : TemplateResourceConfig<U>;

/**
 * What a resource may return: a string (one text item), bytes (one base64 `blob` item), contents
 * (each `uri` defaulting to the URI read), `{ contents }`, or `undefined` when the resource does not
 * exist (the client gets -32602 with `data.uri`; an empty contents array counts as missing too).
 */
export type ResourceReturn =
  | string
  | Uint8Array
  | readonly ResourceContentsInput[]
  | { readonly contents: readonly ResourceContentsInput[] }
  | undefined;

/**
 * A resource's body: the template variables extracted from the URI (`{}` for a static resource)
 * and the `Context`. A template may return an `InputRequiredResult` to ask the client first; a
 * static resource may not (refused: -32603, logged). Throw an `McpError` to answer with that error.
 */
export type ResourceHandler<U extends string> =
  IsStaticUri<U> extends true
    ? (variables: Record<string, never>, ctx: Context) => Awaitable<ResourceReturn>
    : (variables: UriVariables<U>, ctx: Context) => Awaitable<ResourceReturn | InputRequiredResult>;

const RESOURCE_FIELDS = [
  "name",
  "title",
  "description",
  "mimeType",
  "annotations",
  "icons",
  "_meta",
] as const;

/**
 * Checks the fields shared by resources and templates.
 *
 * @throws TypeError (RangeError for cache hints out of range) naming `where`.
 */
export function checkResourceMetadata(config: unknown, where: string): asserts config is ResourceMetadata {
  checkDescriptor(config, where, RESOURCE_FIELDS);
  if (config.cache !== undefined && !isPlainObject(config.cache))
    throw new TypeError(`${where}: cache must be an object`);
  checkCacheHint(config.cache as Partial<CacheHint> | undefined, `${where}: cache`);
}

/** The listed definition's descriptive fields (copies; `name` defaulting to `fallbackName`). */
export function describedFields(config: ResourceMetadata, fallbackName: string): Record<string, unknown> {
  return {
    ...descriptiveFields(config, RESOURCE_FIELDS),
    name: config.name ?? fallbackName,
  };
}
