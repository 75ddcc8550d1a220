/**
 * The resources of an `MCPServer`: static resources (one URI each) and RFC 6570 resource
 * templates in one registration order, and the three requests over them — `resources/read` (exact
 * URI first, then the first template that matches), `resources/list` (static resources and what
 * templates' `list` callbacks report) and `resources/templates/list`. Spec: server/resources.
 */
import { ERRORS, invalidParams, McpError } from "../../protocol/errors.js";
import type { Resource, ResourceTemplate } from "../../protocol/schema/content.js";
import type { InputRequiredResult } from "../../protocol/schema/input.js";
import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from "../../protocol/schema/methods.js";
import { MAX_QUOTED_LENGTH, truncate } from "../../protocol/text.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { toWireStepError } from "../resolve/ask-errors.js";
import { deepFreeze, isPlainObject } from "../schema/json.js";
import type { CacheHint } from "../shaping.js";
import { type Completer, checkCompleters } from "./completion.js";
import { type Context, runHandler } from "./context.js";
import { decodeCursor, encodeCursor, firstIndexFrom, pageOf } from "./pagination.js";
import { type Registered, type RegistrationHandle, Registry } from "./registry.js";
import {
  checkResourceMetadata,
  describedFields,
  type ListedResource,
  type ResourceLister,
  type ResourceMetadata,
} from "./resource-config.js";
import { toReadResourceResult } from "./results.js";
import { checkRequiredScopes, grants, requireScopes } from "./scopes.js";
import { UriTemplate } from "./uri-template.js";

/** The message a static resource that returns an `InputRequiredResult` is refused with (logged). */
export const STATIC_INPUT_REQUIRED_MESSAGE =
  "static resources cannot return an InputRequiredResult; only resource templates take part in the " +
  "multi-round-trip flow";

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

type Body = (variables: Record<string, string>, ctx: Context) => unknown;

interface StaticResource {
  readonly kind: "static";
  readonly definition: Resource;
  readonly mimeType: string | undefined;
  readonly cache: Partial<CacheHint> | undefined;
  readonly body: Body;
  readonly requiredScopes: readonly string[];
}

interface TemplateResource {
  readonly kind: "template";
  readonly template: UriTemplate;
  readonly definition: ResourceTemplate;
  readonly mimeType: string | undefined;
  readonly cache: Partial<CacheHint> | undefined;
  readonly body: Body;
  readonly requiredScopes: readonly string[];
  readonly list: ResourceLister | undefined;
  readonly completers: ReadonlyMap<string, Completer>;
}

type Entry = StaticResource | TemplateResource;

/**
 * -32602 "Resource not found" with `data.uri`, cut to `MAX_QUOTED_LENGTH` (200) characters so a
 * long URI never makes a long answer. Spec: server/resources §Error Handling.
 */
export function resourceNotFound(uri: string): McpError {
  return invalidParams("Resource not found", { uri: truncate(uri, MAX_QUOTED_LENGTH) });
}

/**
 * -32603 "Error reading resource <uri>" with `data.uri`, for a static resource that returned an
 * `InputRequiredResult`; the reason ({@link STATIC_INPUT_REQUIRED_MESSAGE}) rides as the cause,
 * which the server logs and never sends.
 */
function staticInputRequired(uri: string): McpError {
  return new McpError(
    ERRORS.INTERNAL_ERROR.code,
    `Error reading resource ${uri}`,
    { uri },
    { cause: new Error(`resource "${uri}": ${STATIC_INPUT_REQUIRED_MESSAGE}`) },
  );
}

function applyCache(result: ReadResourceResult, cache: Partial<CacheHint> | undefined): ReadResourceResult {
  if (cache === undefined) return result;
  const withHints = { ...result };
  if (withHints.ttlMs === undefined && cache.ttlMs !== undefined) withHints.ttlMs = cache.ttlMs;
  if (withHints.cacheScope === undefined && cache.cacheScope !== undefined)
    withHints.cacheScope = cache.cacheScope;
  return withHints;
}

function createEntry(uri: string, config: unknown, handler: unknown): Entry {
  if (typeof uri !== "string" || !SCHEME.test(uri)) {
    throw new TypeError(`resource URI ${JSON.stringify(uri)} must start with a scheme ("notes://...")`);
  }
  const where = `resource "${uri}"`;
  checkResourceMetadata(config, where);
  if (typeof handler !== "function") throw new TypeError(`${where}: handler must be a function`);
  const template = new UriTemplate(uri);
  const body = handler as Body;
  const shared = {
    requiredScopes: checkRequiredScopes(config.requiredScopes, where),
    mimeType: config.mimeType,
    cache: config.cache === undefined ? undefined : { ...config.cache },
    body,
  };
  const options = config as ResourceMetadata & { size?: unknown; list?: unknown; complete?: unknown };
  if (template.isStatic) {
    if (options.list !== undefined || options.complete !== undefined) {
      throw new TypeError(
        `${where}: list and complete are for resource templates; this URI has no {variables}`,
      );
    }
    if (
      options.size !== undefined &&
      !(Number.isSafeInteger(options.size) && (options.size as number) >= 0)
    ) {
      throw new RangeError(`${where}: size must be a non-negative integer of bytes`);
    }
    const definition: Record<string, unknown> = { uri, ...describedFields(config, uri) };
    if (options.size !== undefined) definition.size = options.size;
    return { kind: "static", definition: deepFreeze(definition) as Resource, ...shared };
  }
  if (options.size !== undefined) throw new TypeError(`${where}: size is for static resources`);
  if (options.list !== undefined && typeof options.list !== "function") {
    throw new TypeError(`${where}: list must be a function`);
  }
  return {
    kind: "template",
    template,
    definition: deepFreeze({ uriTemplate: uri, ...describedFields(config, uri) }) as ResourceTemplate,
    list: options.list as ResourceLister | undefined,
    completers: checkCompleters(options.complete, template.variableNames, where),
    ...shared,
  };
}

function listedResource(item: unknown, template: TemplateResource): Resource {
  if (!isPlainObject(item) || typeof item.uri !== "string") {
    throw new TypeError(
      `the list callback of resource template "${template.template.template}" returned an item without a uri`,
    );
  }
  const resource: Record<string, unknown> = { ...(item as ListedResource) };
  if (resource.name === undefined) resource.name = item.uri;
  if (resource.mimeType === undefined && template.mimeType !== undefined)
    resource.mimeType = template.mimeType;
  return resource as Resource;
}

/** Static resources and templates, in registration order. */
export class ResourceCatalog {
  readonly #registry: Registry<Entry>;
  #templatesOf: readonly Registered<Entry>[] | undefined;
  #templates: readonly Registered<TemplateResource>[] = [];

  /** `onChange` runs whenever a resource or template is added or removed. */
  constructor(onChange: () => void) {
    this.#registry = new Registry(onChange);
  }

  /**
   * Registers a static resource (a URI without expressions) or a template.
   *
   * @throws TypeError for a URI without a scheme, a malformed or unsupported template, a bad config
   *   field or handler, a duplicate URI; RangeError for bad cache hints or `size`.
   */
  add(uri: string, config: unknown, handler: unknown): RegistrationHandle {
    const entry = createEntry(uri, config, handler);
    return this.#registry.add(uri, entry, entry.kind === "static" ? "resource" : "resource template");
  }

  /** The template registered with exactly this URI template text. */
  template(uriTemplate: string): TemplateResource | undefined {
    const entry = this.#registry.get(uriTemplate);
    return entry?.kind === "template" ? entry : undefined;
  }

  /** The templates, in registration order (derived once per change of the registry). */
  #templateEntries(): readonly Registered<TemplateResource>[] {
    const entries = this.#registry.entries;
    if (this.#templatesOf !== entries) {
      this.#templates = entries.filter((e): e is Registered<TemplateResource> => e.value.kind === "template");
      this.#templatesOf = entries;
    }
    return this.#templates;
  }

  /**
   * The entry a read of `uri` reaches: the static resource with this exact URI, else the first
   * template (in registration order) that matches it, with its variables.
   */
  #entryFor(uri: string): { entry: Entry; variables: Record<string, string> } | undefined {
    const exact = this.#registry.get(uri);
    if (exact?.kind === "static") return { entry: exact, variables: {} };
    for (const { value } of this.#templateEntries()) {
      const variables = value.template.match(uri);
      if (variables !== undefined) return { entry: value, variables };
    }
    return undefined;
  }

  /**
   * The `requiredScopes` of what a read of `uri` reaches (a static resource, else the first
   * matching template); empty when nothing matches.
   */
  requiredScopesOf(uri: string): readonly string[] {
    return this.#entryFor(uri)?.entry.requiredScopes ?? [];
  }

  /**
   * `resources/read`: the static resource with this exact URI, else the first template (in
   * registration order) that matches it.
   *
   * @throws McpError -32602 (`data.uri`) when nothing matches or the handler says it does not
   *   exist; Error (logged by the server, -32603 to the client) when a static resource returns an
   *   `InputRequiredResult`; InvalidHandlerResultError for a return that fits no convention;
   *   whatever the handler throws.
   */
  async read(uri: string, ctx: Context): Promise<ReadResourceResult | InputRequiredResult> {
    const found = this.#entryFor(uri);
    if (found === undefined) throw resourceNotFound(uri);
    const { entry, variables } = found;
    requireScopes(ctx.auth, entry.requiredScopes);
    const name = entry.kind === "static" ? entry.definition.uri : entry.template.template;
    let returned: unknown;
    try {
      returned = await runHandler(entry.body, variables, ctx);
    } catch (error) {
      throw toWireStepError(error);
    }
    const result = toReadResourceResult(returned, uri, entry.mimeType, name);
    if (result === undefined) throw resourceNotFound(uri);
    if (result.resultType === "input_required") {
      if (entry.kind === "static") throw staticInputRequired(uri);
      return result;
    }
    return applyCache(result as ReadResourceResult, entry.cache);
  }

  /**
   * `resources/list`: static resources and the items of templates' `list` callbacks, in
   * registration order, `pageSize` items per page. A template's `list` callback runs only for a
   * request granted its `requiredScopes`; with `hideUnauthorized`, static resources whose
   * `requiredScopes` the request's token lacks are left out too.
   *
   * @throws McpError -32602 "Invalid cursor"; TypeError for a listed item without a `uri`.
   */
  async list(
    cursor: string | undefined,
    pageSize: number,
    ctx: Context,
    hideUnauthorized = false,
  ): Promise<ListResourcesResult> {
    const start = decodeCursor("resources", cursor);
    const entries = this.#registry.entries;
    const resources: Resource[] = [];
    for (let i = firstIndexFrom(entries, start.seq); i < entries.length; i++) {
      const { seq, value } = entries[i] as Registered<Entry>;
      let items: readonly Resource[];
      const granted = grants(ctx.auth, value.requiredScopes);
      if (hideUnauthorized && !granted) continue;
      if (value.kind === "static") items = [value.definition];
      // A template's items are what its scopes protect: its callback never runs without them.
      else if (value.list === undefined || !granted) continue;
      else items = (await value.list(ctx)).map((item) => listedResource(item, value));
      const offset = seq === start.seq ? start.offset : 0;
      for (let j = offset; j < items.length; j++) {
        if (resources.length === pageSize) {
          return { resources, nextCursor: encodeCursor("resources", { seq, offset: j }) };
        }
        resources.push(items[j] as Resource);
      }
    }
    return { resources };
  }

  /**
   * `resources/templates/list`: the templates in registration order; with `hideUnauthorized`,
   * without those whose `requiredScopes` `auth` lacks (a page may then hold fewer).
   *
   * @throws McpError -32602 "Invalid cursor".
   */
  listTemplates(
    cursor: string | undefined,
    pageSize: number,
    auth?: AuthInfo,
    hideUnauthorized = false,
  ): ListResourceTemplatesResult {
    const { page, nextCursor } = pageOf("templates", this.#templateEntries(), cursor, pageSize);
    const resourceTemplates = page
      .filter((entry) => !hideUnauthorized || grants(auth, entry.value.requiredScopes))
      .map((entry) => entry.value.definition);
    return nextCursor === undefined ? { resourceTemplates } : { resourceTemplates, nextCursor };
  }
}
