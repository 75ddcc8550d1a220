/**
 * `server/discover`: what the server offers, derived from the handlers it has. A capability is
 * advertised exactly when a handler serves it (the tasks extension, when the server serves tasks,
 * under `capabilities.extensions`). Spec: server/discover.
 */
import type { ServerCapabilities } from "../protocol/schema/base.js";
import { TASKS_EXTENSION } from "../protocol/schema/tasks.js";
import type { ServerHandlers } from "./handlers.js";

/** The capabilities a set of handlers serves, with `overrides` merged on top. */
export function deriveCapabilities(
  handlers: ServerHandlers,
  overrides: ServerCapabilities = {},
): ServerCapabilities {
  const capabilities: ServerCapabilities = { logging: {} };
  if (handlers.onListTools || handlers.onCallTool) capabilities.tools = { listChanged: true };
  if (handlers.onListPrompts || handlers.onGetPrompt) capabilities.prompts = { listChanged: true };
  if (handlers.onListResources || handlers.onListResourceTemplates || handlers.onReadResource) {
    capabilities.resources = { listChanged: true, subscribe: true };
  }
  if (handlers.onComplete) capabilities.completions = {};
  return { ...capabilities, ...overrides };
}

/**
 * True when the server has anything a `subscriptions/listen` stream could report (list changes,
 * resource updates, or task status changes of the tasks extension).
 */
export function canListen(capabilities: ServerCapabilities): boolean {
  return Boolean(
    capabilities.tools?.listChanged ||
      capabilities.prompts?.listChanged ||
      capabilities.resources?.listChanged ||
      capabilities.resources?.subscribe ||
      capabilities.extensions?.[TASKS_EXTENSION] !== undefined,
  );
}
