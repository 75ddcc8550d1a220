/**
 * `tsmcp/apps`: MCP Apps (SEP-1865, extension `io.modelcontextprotocol/ui`), both halves. A server
 * registers `ui://` HTML resources and links tools to them (`appResource`, `appTool`); a host reads
 * a tool's UI (`uiResourceOf`, `readUiResource`) and declares the extension
 * (`appsClientCapabilities`). Runtime-neutral.
 * Spec: https://modelcontextprotocol.io/extensions/apps/overview.
 */
export {
  isToolCallableByApp,
  isToolVisibleToModel,
  readUiResource,
  type UiResource,
  UiResourceError,
  type UiResourceReader,
  type UiToolLink,
  uiResourceOf,
} from "./client.js";
export {
  type AppResourceConfig,
  type AppResourceHtml,
  type AppToolConfig,
  type AppToolUi,
  appResource,
  appTool,
} from "./server.js";
export {
  APPS_EXTENSION_ID,
  type AppsClientSettings,
  AppsClientSettingsSchema,
  appsClientCapabilities,
  appsExtension,
  HTML_APPS_CLIENT_SETTINGS,
  isUiResourceUri,
  supportsApps,
  UI_RESOURCE_MIME_TYPE,
  UI_RESOURCE_URI_META_KEY,
  UI_URI_PREFIX,
  type UiResourceCsp,
  UiResourceCspSchema,
  type UiResourceMeta,
  UiResourceMetaSchema,
  type UiResourcePermissions,
  UiResourcePermissionsSchema,
  type UiToolMeta,
  UiToolMetaSchema,
  type UiToolVisibility,
  UiToolVisibilitySchema,
} from "./wire.js";
