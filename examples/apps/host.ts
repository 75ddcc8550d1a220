/**
 * The MCP side of a host that renders MCP Apps: it declares the extension (HTML views), shows the model only the
 * tools whose visibility includes it, calls one, and when the tool carries a UI, reads its `ui://`
 * resource for the page to render in a sandboxed iframe (with the CSP the resource declares).
 */
import {
  appsExtension,
  isToolVisibleToModel,
  readUiResource,
  type UiResource,
  uiResourceOf,
} from "tsmcp/apps";
import { Client } from "tsmcp/client";
import type { CallToolResult } from "tsmcp/types";

/** A tool call as a host shows it: the result, and the UI to render it with when the tool has one. */
export interface HostedCall {
  /** The tools the model may see. */
  modelTools: string[];
  /** The call's result (its text is the fallback when there is no UI). */
  result: CallToolResult;
  /** The tool's UI, checked; undefined for a text-only tool. */
  ui: UiResource | undefined;
}

/** Connects to `url` as an MCP Apps host, calls `name`, and reads its UI. */
export async function callWithUi(url: string | URL, name: string, args: Record<string, unknown> = {}) {
  const client = await Client.connect(url, { extensions: [appsExtension] });
  try {
    const { tools } = await client.listTools();
    const modelTools = tools.filter(isToolVisibleToModel);
    const tool = modelTools.find((candidate) => candidate.name === name);
    if (tool === undefined) throw new Error(`the model sees no tool named ${name}`);
    const result = await client.callTool(name, args);
    const ui = uiResourceOf(tool) === undefined ? undefined : await readUiResource(client, tool);
    return { modelTools: modelTools.map((candidate) => candidate.name), result, ui } satisfies HostedCall;
  } finally {
    await client.close();
  }
}
