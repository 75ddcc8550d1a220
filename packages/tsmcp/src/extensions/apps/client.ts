/**
 * MCP Apps for a host built on the tsmcp `Client`: which UI a tool links to ({@link uiResourceOf})
 * and its HTML, read and checked ({@link readUiResource}), ready to render in a sandboxed iframe.
 * Spec: https://modelcontextprotocol.io/extensions/apps/overview (Resource Discovery, UI Resource
 * Format).
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";
import type { Tool } from "../../protocol/schema/content.js";
import type { ReadResourceResult } from "../../protocol/schema/methods.js";
import {
  isUiResourceUri,
  UI_RESOURCE_MIME_TYPE,
  UI_RESOURCE_URI_META_KEY,
  type UiResourceMeta,
  UiResourceMetaSchema,
  UiToolMetaSchema,
  type UiToolVisibility,
} from "./wire.js";

/** A tool's UI link or UI resource breaks the MCP Apps rules (the message says which). */
export class UiResourceError extends TsmcpError {
  override readonly name = "UiResourceError";
  /** `"ERR_UI_RESOURCE"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.UiResourceError;
  /** The UI resource URI concerned, when there is one. */
  readonly uri: string | undefined;

  constructor(message: string, uri?: string) {
    super(message);
    this.uri = uri;
  }
}

/** What a tool's `_meta.ui` says, with the default visibility filled in. */
export interface UiToolLink {
  /** The `ui://` resource to render the tool's results with. */
  readonly resourceUri: string;
  /** Who may see and call the tool; `["model", "app"]` when the server said nothing. */
  readonly visibility: readonly UiToolVisibility[];
}

/**
 * The UI a tool links to: `_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`;
 * `undefined` for a tool without a UI.
 *
 * @throws UiResourceError when the tool names a UI that is not a `ui://` URI, or its `_meta.ui` is
 *   malformed (a `visibility` other than a list of `"model"` and `"app"`).
 */
export function uiResourceOf(tool: Pick<Tool, "name" | "_meta">): UiToolLink | undefined {
  const meta = tool._meta;
  if (meta === undefined || meta === null) return undefined;
  const nested = meta.ui;
  let ui: { resourceUri?: string | undefined; visibility?: UiToolVisibility[] | undefined } = {};
  if (nested !== undefined) {
    const parsed = UiToolMetaSchema.safeParse(nested);
    if (!parsed.success) {
      throw new UiResourceError(
        `tool ${JSON.stringify(tool.name)} has a malformed _meta.ui: ${parsed.error.message}`,
      );
    }
    ui = parsed.data;
  }
  const uri: unknown = ui.resourceUri ?? meta[UI_RESOURCE_URI_META_KEY];
  if (uri === undefined) return undefined;
  if (!isUiResourceUri(uri)) {
    throw new UiResourceError(
      `tool ${JSON.stringify(tool.name)} links to ${JSON.stringify(uri)}, which is not a ui:// resource`,
    );
  }
  return Object.freeze({
    resourceUri: uri,
    visibility: Object.freeze([...(ui.visibility ?? (["model", "app"] as const))]),
  });
}

/** True when the model may see and call `tool` (its visibility includes `"model"`, the default). */
export function isToolVisibleToModel(tool: Pick<Tool, "name" | "_meta">): boolean {
  return uiResourceOf(tool)?.visibility.includes("model") ?? true;
}

/** True when an app (the UI) may call `tool` (its visibility includes `"app"`, the default). */
export function isToolCallableByApp(tool: Pick<Tool, "name" | "_meta">): boolean {
  return uiResourceOf(tool)?.visibility.includes("app") ?? true;
}

/** A UI resource read and checked, for the host to render. */
export interface UiResource {
  /** Its `ui://` URI. */
  readonly uri: string;
  /** `"text/html;profile=mcp-app"`. */
  readonly mimeType: string;
  /** The HTML document (decoded from base64 when the server sent a `blob`). */
  readonly html: string;
  /**
   * `_meta.ui` of the contents (CSP domains, permissions, domain, border preference) for the
   * host's sandbox; `{}` when the server sent none.
   */
  readonly ui: UiResourceMeta;
  /** The contents item's whole `_meta`, as sent. */
  readonly _meta: Readonly<Record<string, unknown>> | undefined;
}

/** What {@link readUiResource} reads with: a tsmcp `Client` (or anything with its `readResource`). */
export interface UiResourceReader {
  /** `resources/read` of `uri`, its multi-round-trip loop run (as `Client.readResource`). */
  readResource(uri: string): Promise<ReadResourceResult>;
}

/**
 * Reads the UI resource a tool links to (or the `ui://` URI given) with `resources/read` and checks
 * it as a host must before rendering: a contents item for that URI, of MIME type
 * `text/html;profile=mcp-app`, with `text` or a base64 `blob`, and a well-formed `_meta.ui`.
 *
 * @throws UiResourceError when the tool has no UI link or a bad one, the URI is not `ui://`, or the
 *   contents break the rules above; `McpError` when the server answers an error (the resource does
 *   not exist: -32602); what `client.readResource` throws otherwise.
 */
export async function readUiResource(
  client: UiResourceReader,
  toolOrUri: Pick<Tool, "name" | "_meta"> | string,
): Promise<UiResource> {
  let uri: string;
  if (typeof toolOrUri === "string") {
    if (!isUiResourceUri(toolOrUri)) {
      throw new UiResourceError(`${JSON.stringify(toolOrUri)} is not a ui:// resource URI`, toolOrUri);
    }
    uri = toolOrUri;
  } else {
    const link = uiResourceOf(toolOrUri);
    if (link === undefined) {
      throw new UiResourceError(`tool ${JSON.stringify(toolOrUri.name)} links to no UI resource`);
    }
    uri = link.resourceUri;
  }
  const result = await client.readResource(uri);
  const item = result.contents.find((contents) => contents.uri === uri);
  if (item === undefined) {
    throw new UiResourceError(`resources/read of ${uri} answered no contents for that URI`, uri);
  }
  if (item.mimeType !== UI_RESOURCE_MIME_TYPE) {
    throw new UiResourceError(
      `UI resource ${uri} has MIME type ${JSON.stringify(item.mimeType)}, not "${UI_RESOURCE_MIME_TYPE}"`,
      uri,
    );
  }
  const html = "text" in item && typeof item.text === "string" ? item.text : decodeBlob(item, uri);
  const rawMeta = item._meta as Record<string, unknown> | undefined;
  const parsed = UiResourceMetaSchema.safeParse(rawMeta?.ui ?? {});
  if (!parsed.success) {
    throw new UiResourceError(`UI resource ${uri} has a malformed _meta.ui: ${parsed.error.message}`, uri);
  }
  return Object.freeze({ uri, mimeType: UI_RESOURCE_MIME_TYPE, html, ui: parsed.data, _meta: rawMeta });
}

function decodeBlob(item: object, uri: string): string {
  const blob: unknown = (item as { blob?: unknown }).blob;
  if (typeof blob !== "string")
    throw new UiResourceError(`UI resource ${uri} has neither text nor blob`, uri);
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(blob), (char) => char.charCodeAt(0));
  } catch {
    throw new UiResourceError(`UI resource ${uri} has a blob that is not base64`, uri);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UiResourceError(`UI resource ${uri} has a blob that is not UTF-8 text`, uri);
  }
}
