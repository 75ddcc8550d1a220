/**
 * MCP Apps (SEP-1865, extension `io.modelcontextprotocol/ui`) on the wire: the extension's
 * declaration, the `ui://` resource MIME type, and the `_meta.ui` shapes servers put on tools and
 * on UI resources. Protocol only: no server, no client.
 * Spec: https://modelcontextprotocol.io/extensions/apps/overview and
 * https://github.com/modelcontextprotocol/ext-apps (specification/2026-01-26/apps.mdx).
 */
import * as z from "zod";
import { defineExtension } from "../../protocol/extension.js";
import type { ClientCapabilities } from "../../protocol/schema/base.js";

/** The extension identifier of MCP Apps: the key under `capabilities.extensions`. */
export const APPS_EXTENSION_ID = "io.modelcontextprotocol/ui";

/** The MIME type of an HTML UI resource (`resources/read` contents MUST carry it). */
export const UI_RESOURCE_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * The older, flat tool `_meta` key holding the UI resource URI (`_meta["ui/resourceUri"]`),
 * deprecated by the specification in favour of `_meta.ui.resourceUri`. Servers built with tsmcp set
 * both; clients read the nested one first.
 */
export const UI_RESOURCE_URI_META_KEY = "ui/resourceUri";

/** The URI scheme prefix every UI resource uses. */
export const UI_URI_PREFIX = "ui://";

/** True when `uri` is a `ui://` URI with something after the scheme. */
export function isUiResourceUri(uri: unknown): uri is `ui://${string}` {
  return typeof uri === "string" && uri.startsWith(UI_URI_PREFIX) && uri.length > UI_URI_PREFIX.length;
}

/**
 * The origins a UI resource needs (each maps to a Content Security Policy directive the host
 * builds); omitted lists mean none (the host's restrictive default).
 */
export const UiResourceCspSchema = z.looseObject({
  /** Origins for fetch, XHR and WebSocket (`connect-src`). */
  connectDomains: z.array(z.string()).optional(),
  /** Origins for scripts, images, styles, fonts and media. */
  resourceDomains: z.array(z.string()).optional(),
  /** Origins for nested iframes (`frame-src`). */
  frameDomains: z.array(z.string()).optional(),
  /** Allowed base URIs (`base-uri`). */
  baseUriDomains: z.array(z.string()).optional(),
});

/** Browser permissions a UI resource asks the host for (it may not get them). */
export const UiResourcePermissionsSchema = z.looseObject({
  camera: z.looseObject({}).optional(),
  microphone: z.looseObject({}).optional(),
  geolocation: z.looseObject({}).optional(),
  clipboardWrite: z.looseObject({}).optional(),
});

/** `_meta.ui` of a UI resource (on its listing and on its `resources/read` contents). */
export const UiResourceMetaSchema = z.looseObject({
  /** The origins it needs (see {@link UiResourceCspSchema}). */
  csp: UiResourceCspSchema.optional(),
  /** The browser permissions it asks for. */
  permissions: UiResourcePermissionsSchema.optional(),
  /** A dedicated sandbox origin; its format is the host's. */
  domain: z.string().optional(),
  /** `true`: the host draws a border and background; `false`: none; absent: the host decides. */
  prefersBorder: z.boolean().optional(),
});

/** Who may see and call a tool: the model (the agent's tool list), the app (its UI), or both. */
export const UiToolVisibilitySchema = z.enum(["model", "app"]);

/** `_meta.ui` of a tool. */
export const UiToolMetaSchema = z.looseObject({
  /** The `ui://` resource the host renders the tool's results with. */
  resourceUri: z.string().optional(),
  /** Who may see and call the tool; default `["model", "app"]`. */
  visibility: z.array(UiToolVisibilitySchema).optional(),
});

/** The settings a client (host) declares for the extension. */
export const AppsClientSettingsSchema = z.looseObject({
  /** The UI content types the host renders; `["text/html;profile=mcp-app"]` for HTML. */
  mimeTypes: z.array(z.string()),
});

/**
 * The settings a client declares through the `extensions` option: {@link AppsClientSettingsSchema}
 * with `mimeTypes` defaulting to `["text/html;profile=mcp-app"]`.
 */
const AppsClientDeclarationSchema = z.looseObject({
  mimeTypes: z.array(z.string()).default([UI_RESOURCE_MIME_TYPE]),
});

/** `_meta.ui` of a UI resource. */
export type UiResourceMeta = z.infer<typeof UiResourceMetaSchema>;
/** `_meta.ui.csp` of a UI resource. */
export type UiResourceCsp = z.infer<typeof UiResourceCspSchema>;
/** `_meta.ui.permissions` of a UI resource. */
export type UiResourcePermissions = z.infer<typeof UiResourcePermissionsSchema>;
/** One audience of a tool: `"model"` or `"app"`. */
export type UiToolVisibility = z.infer<typeof UiToolVisibilitySchema>;
/** `_meta.ui` of a tool. */
export type UiToolMeta = z.infer<typeof UiToolMetaSchema>;
/** The settings a client declares for MCP Apps. */
export type AppsClientSettings = z.infer<typeof AppsClientSettingsSchema>;

/**
 * The MCP Apps extension, declared once. A host declares it with the client's `extensions` option:
 * `extensions: [appsExtension]` declares `{ mimeTypes: ["text/html;profile=mcp-app"] }`, and
 * `[{ extension: appsExtension, settings: { mimeTypes } }]` other content types. A server that
 * registers a UI resource with `appResource` advertises it. It adds no methods (the UI is a `ui://` resource read with
 * `resources/read`, and the app talks to its host, not to the server). It owns the deprecated flat
 * tool `_meta` key `ui/resourceUri`; the nested `_meta.ui` has no prefix, as the specification
 * names it. Spec: https://modelcontextprotocol.io/extensions/apps/overview.
 */
export const appsExtension = defineExtension({
  id: APPS_EXTENSION_ID,
  clientSettings: AppsClientDeclarationSchema,
  metaKeys: [UI_RESOURCE_URI_META_KEY],
});

/** The settings of a host that renders HTML UI resources: `{ mimeTypes: ["text/html;profile=mcp-app"] }`. */
export const HTML_APPS_CLIENT_SETTINGS: Readonly<AppsClientSettings> = Object.freeze({
  mimeTypes: Object.freeze([UI_RESOURCE_MIME_TYPE]) as unknown as string[],
});

/**
 * Client capabilities declaring MCP Apps (`{ extensions: { "io.modelcontextprotocol/ui": settings } }`),
 * for a client that takes raw capabilities (the tsmcp `Client` takes `extensions: [appsExtension]`).
 *
 * @param settings the declared settings; default {@link HTML_APPS_CLIENT_SETTINGS}.
 * @throws TypeError when `settings` has no `mimeTypes` array of strings.
 */
export function appsClientCapabilities(
  settings: AppsClientSettings = HTML_APPS_CLIENT_SETTINGS,
): ClientCapabilities {
  const parsed = AppsClientSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    throw new TypeError(
      `appsClientCapabilities: settings need mimeTypes, an array of strings (e.g. ["${UI_RESOURCE_MIME_TYPE}"])`,
    );
  }
  return { extensions: { [APPS_EXTENSION_ID]: { ...settings, mimeTypes: [...settings.mimeTypes] } } };
}

/**
 * True when client capabilities declare MCP Apps with `mimeType` among their `mimeTypes` (what a
 * server checks before counting on a UI: `ctx.clientCapabilities` in a handler).
 *
 * @param mimeType the UI content type; default {@link UI_RESOURCE_MIME_TYPE}.
 */
export function supportsApps(
  capabilities: ClientCapabilities | undefined,
  mimeType: string = UI_RESOURCE_MIME_TYPE,
): boolean {
  const extensions: unknown = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  if (typeof extensions !== "object" || extensions === null) return false;
  const settings = AppsClientSettingsSchema.safeParse(
    (extensions as Record<string, unknown>)[APPS_EXTENSION_ID],
  );
  return settings.success && settings.data.mimeTypes.includes(mimeType);
}
