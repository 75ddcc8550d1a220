/**
 * MCP Apps on an `MCPServer`: a `ui://` HTML resource ({@link appResource}) and a tool linked to it
 * ({@link appTool}) through `_meta.ui.resourceUri`, both checked when registered.
 * Spec: https://modelcontextprotocol.io/extensions/apps/overview (UI Resource Format, Resource
 * Discovery).
 */
import type { Awaitable } from "../../server/handlers.js";
import type { Context } from "../../server/mcp/context.js";
import type { RegistrationHandle } from "../../server/mcp/registry.js";
import type { ResourceMetadata } from "../../server/mcp/resource-config.js";
import type { MCPServer } from "../../server/mcp/server.js";
import type { ToolConfig, ToolHandlerFor, ToolResolvers } from "../../server/mcp/tools.js";
import type { SchemaLike } from "../../server/schema/compile.js";
import {
  appsExtension,
  isUiResourceUri,
  UI_RESOURCE_MIME_TYPE,
  UI_RESOURCE_URI_META_KEY,
  UI_URI_PREFIX,
  type UiResourceMeta,
  UiResourceMetaSchema,
  type UiToolVisibility,
  UiToolVisibilitySchema,
} from "./wire.js";

/** The `ui://` resources registered with {@link appResource}, per server. */
const registered = new WeakMap<MCPServer, Set<string>>();
/** The servers that advertise the extension (their first {@link appResource} registered it). */
const advertised = new WeakSet<MCPServer>();

/**
 * Advertises MCP Apps in `mcp`'s capabilities (`extensions["io.modelcontextprotocol/ui"] = {}`),
 * unless it is already (by an earlier {@link appResource}, or by the user's `mcp.extension`).
 */
function advertise(mcp: MCPServer): void {
  if (advertised.has(mcp)) return;
  try {
    mcp.extension(appsExtension, { handlers: {} });
  } catch (error) {
    if (!(error instanceof TypeError && /registered already/.test(error.message))) throw error;
  }
  advertised.add(mcp);
}

/** The UI resource of each tool registered with {@link appTool} (tool name -> URI), per server. */
const linkedTools = new WeakMap<MCPServer, Map<string, string>>();

/**
 * Stamps `_meta.ui.resourceUri` on the complete results of `mcp`'s app tools, so that a host that
 * reads the link from the result (as well as from the tool definition) finds it. Installed once
 * per server, by its first {@link appTool}.
 */
function linkedToolsOf(mcp: MCPServer): Map<string, string> {
  const known = linkedTools.get(mcp);
  if (known !== undefined) return known;
  const tools = new Map<string, string>();
  linkedTools.set(mcp, tools);
  // Every other request passes straight through, without waiting on it here.
  mcp.use((request, next) => {
    if (request.method !== "tools/call") return next(request);
    const uri = tools.get(String((request.params as { name?: unknown } | undefined)?.name));
    if (uri === undefined) return next(request);
    return next(request).then((result) => {
      if (!Array.isArray(result.content) || result.resultType === "input_required") return result;
      const meta = (result._meta ?? {}) as Record<string, unknown>;
      const ui = (typeof meta.ui === "object" && meta.ui !== null ? meta.ui : {}) as Record<string, unknown>;
      return { ...result, _meta: { ...meta, ui: { ...ui, resourceUri: uri } } };
    });
  });
  return tools;
}

/** How {@link appResource} describes a UI resource. Its MIME type is always `text/html;profile=mcp-app`. */
export interface AppResourceConfig extends Omit<ResourceMetadata, "mimeType"> {
  /**
   * `_meta.ui` of the resource: the origins it needs (`csp`), the browser permissions it asks for,
   * a dedicated `domain`, `prefersBorder`. Sent on its listing and on every `resources/read`
   * contents item. Default none (the host's restrictive defaults).
   */
  ui?: UiResourceMeta;
}

/** The HTML of a UI resource: a string, or a function giving it for each read. */
export type AppResourceHtml = string | ((ctx: Context) => Awaitable<string>);

/**
 * Registers a UI resource of MCP Apps on `mcp`: a static `ui://` resource whose `resources/read`
 * answers one contents item, `{ uri, mimeType: "text/html;profile=mcp-app", text: html, _meta: { ui } }`.
 * The first one also advertises the extension in the server's capabilities (`server/discover`,
 * `initialize`), unless `mcp.extension(appsExtension, ...)` did.
 * Link tools to it with {@link appTool}. The HTML should be a complete HTML5 document; the host
 * renders it in a sandboxed iframe under a Content Security Policy built from `config.ui.csp`.
 *
 * @returns the registration handle (`remove()` unregisters it; tools linked to it stay linked).
 * @throws TypeError when `uri` is not a `ui://` URI, has template expressions or is already
 *   registered, `config.ui` is not a valid `_meta.ui` (csp lists of strings, permissions objects,
 *   `domain` a string, `prefersBorder` a boolean), `config._meta` already has `ui`, or `html` is
 *   neither a string nor a function; what `mcp.resource` throws otherwise.
 * Spec: https://modelcontextprotocol.io/extensions/apps/overview.
 */
export function appResource(
  mcp: MCPServer,
  uri: string,
  config: AppResourceConfig,
  html: AppResourceHtml,
): RegistrationHandle {
  if (!isUiResourceUri(uri)) {
    throw new TypeError(
      `appResource: the URI must start with "${UI_URI_PREFIX}", got ${JSON.stringify(uri)}`,
    );
  }
  if (/[{}]/.test(uri)) {
    throw new TypeError(`appResource(${uri}): a UI resource is static; URI templates are not allowed`);
  }
  if (typeof config !== "object" || config === null) {
    throw new TypeError(`appResource(${uri}): config must be an object`);
  }
  if (typeof html !== "string" && typeof html !== "function") {
    throw new TypeError(`appResource(${uri}): html must be a string or a function returning one`);
  }
  if ("mimeType" in config) {
    throw new TypeError(
      `appResource(${uri}): the MIME type is always "${UI_RESOURCE_MIME_TYPE}"; drop mimeType`,
    );
  }
  const { ui, ...metadata } = config;
  let meta: Record<string, unknown> | undefined;
  if (ui !== undefined) {
    const parsed = UiResourceMetaSchema.safeParse(ui);
    if (!parsed.success) {
      throw new TypeError(`appResource(${uri}): config.ui is not a valid _meta.ui: ${parsed.error.message}`);
    }
    meta = structuredClone(ui) as Record<string, unknown>;
  }
  if (metadata._meta !== undefined && Object.hasOwn(metadata._meta, "ui")) {
    throw new TypeError(`appResource(${uri}): set _meta.ui through config.ui`);
  }
  const listedMeta = meta === undefined ? metadata._meta : { ...metadata._meta, ui: meta };
  const handle = mcp.resource(
    uri,
    {
      ...metadata,
      mimeType: UI_RESOURCE_MIME_TYPE,
      ...(listedMeta === undefined ? {} : { _meta: listedMeta }),
    },
    async (_variables, ctx) => {
      const text = typeof html === "string" ? html : await html(ctx);
      if (typeof text !== "string") {
        throw new TypeError(`appResource(${uri}): the html function returned ${typeof text}, not a string`);
      }
      return [
        {
          uri,
          mimeType: UI_RESOURCE_MIME_TYPE,
          text,
          ...(meta === undefined ? {} : { _meta: { ui: structuredClone(meta) } }),
        },
      ];
    },
  );
  advertise(mcp);
  const uris = registered.get(mcp) ?? new Set<string>();
  registered.set(mcp, uris);
  uris.add(uri);
  return {
    name: handle.name,
    remove: () => {
      uris.delete(uri);
      handle.remove();
    },
  };
}

/** The link of an {@link appTool} to its UI. */
export interface AppToolUi {
  /** The `ui://` resource the host renders the tool's results with, registered by {@link appResource}. */
  resourceUri: string;
  /**
   * Who may see and call the tool: `"model"` (the agent's tool list), `"app"` (calls from the UI).
   * Default (omitted on the wire): `["model", "app"]`. `["app"]` hides the tool from the model.
   */
  visibility?: readonly UiToolVisibility[];
}

/** The configuration of {@link appTool}: `mcp.tool`'s, with the UI link. */
export type AppToolConfig<
  I extends SchemaLike | undefined = undefined,
  O extends SchemaLike | undefined = undefined,
  R extends ToolResolvers<I> | undefined = undefined,
> = ToolConfig<I, O, R> & {
  /** The UI resource the tool links to, and who may call it. */
  ui: AppToolUi;
};

/**
 * Registers a tool of `mcp` linked to a UI resource of MCP Apps: its definition carries
 * `_meta.ui = { resourceUri, visibility? }` and, for hosts that read the older flat key,
 * `_meta["ui/resourceUri"]`; its complete results carry `_meta.ui.resourceUri` too (the handler's
 * own `_meta` kept). The handler is `mcp.tool`'s; what it returns is the text-only
 * fallback a client without the extension shows (a string, content blocks, or structured data whose
 * JSON becomes the text), and what a host hands the app in `ui/notifications/tool-result`
 * (`structuredContent` for the UI, `content` for the model).
 *
 * @returns the registration handle of the tool.
 * @throws TypeError when `config.ui.resourceUri` is not a `ui://` URI or names no resource registered
 *   on `mcp` with {@link appResource} (register the resource first), `visibility` is empty or has a
 *   value other than `"model"` and `"app"` (or one twice), or `config._meta` already has `ui` or
 *   `ui/resourceUri`; what `mcp.tool` throws otherwise.
 * Spec: https://modelcontextprotocol.io/extensions/apps/overview (Resource Discovery).
 */
export function appTool<
  I extends SchemaLike | undefined = undefined,
  O extends SchemaLike | undefined = undefined,
  R extends ToolResolvers<I> | undefined = undefined,
>(
  mcp: MCPServer,
  name: string,
  config: AppToolConfig<I, O, R>,
  handler: NoInfer<ToolHandlerFor<I, O, R>>,
): RegistrationHandle {
  if (typeof config !== "object" || config === null) {
    throw new TypeError(`appTool(${name}): config must be an object`);
  }
  const { ui, ...toolConfig } = config;
  if (typeof ui !== "object" || ui === null) {
    throw new TypeError(`appTool(${name}): config.ui must be { resourceUri, visibility? }`);
  }
  const { resourceUri, visibility } = ui;
  if (!isUiResourceUri(resourceUri)) {
    throw new TypeError(
      `appTool(${name}): ui.resourceUri must be a "${UI_URI_PREFIX}" URI, got ${JSON.stringify(resourceUri)}`,
    );
  }
  if (!registered.get(mcp)?.has(resourceUri)) {
    throw new TypeError(
      `appTool(${name}): ui.resourceUri ${resourceUri} is not a UI resource of this server; register it with appResource first`,
    );
  }
  if (visibility !== undefined) {
    const values = Array.isArray(visibility) ? visibility : [];
    if (
      values.length === 0 ||
      values.some((value) => !UiToolVisibilitySchema.safeParse(value).success) ||
      new Set(values).size !== values.length
    ) {
      throw new TypeError(
        `appTool(${name}): ui.visibility must list "model" and/or "app" once each, got ${JSON.stringify(visibility)}`,
      );
    }
  }
  const extra = toolConfig._meta;
  if (extra !== undefined && (Object.hasOwn(extra, "ui") || Object.hasOwn(extra, UI_RESOURCE_URI_META_KEY))) {
    throw new TypeError(`appTool(${name}): set _meta.ui through config.ui`);
  }
  const _meta = {
    ...extra,
    ui: { resourceUri, ...(visibility === undefined ? {} : { visibility: [...visibility] }) },
    [UI_RESOURCE_URI_META_KEY]: resourceUri,
  };
  const handle = mcp.tool<I, O, R>(name, { ...toolConfig, _meta } as ToolConfig<I, O, R>, handler);
  const tools = linkedToolsOf(mcp);
  tools.set(name, resourceUri);
  return {
    name: handle.name,
    remove: () => {
      if (tools.get(name) === resourceUri) tools.delete(name);
      handle.remove();
    },
  };
}
