/**
 * What each command does once connected: list, call, get, read, discover, and print the result
 * (human text, or with `--json` the result object alone on stdout). Returns the exit code.
 * Spec: server/tools, server/prompts, server/resources, basic/lifecycle (server/discover).
 */
import type { CallOptions, Client, ParkOptions } from "tsmcp/client";
import type { Prompt, Resource, ResourceTemplate, Tool } from "tsmcp/types";
import type { UnansweredInputError } from "./answers.js";
import { askArguments, MissingArgumentsError, missingArguments } from "./arguments.js";
import { note, writeLog } from "./connect.js";
import {
  type JsonSchema,
  outputWidth,
  renderPrompts,
  renderResources,
  renderTemplates,
  renderTools,
} from "./listing.js";
import { progressDisplay } from "./progress.js";
import { renderPrompt, renderResource, renderToolResult } from "./render.js";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "./target.js";
import { safeJson, safeText } from "./terminal.js";

/** Pages a listing reads at most (a server could hand out cursors forever). */
const MAX_LIST_PAGES = 100;

/** How a command prints: `json` puts only the JSON result on stdout. */
export interface Output {
  readonly json: boolean;
  readonly verbose: number;
  /** A person at a terminal can be asked (missing arguments, questions). */
  readonly interactive?: boolean;
  /** The questions nothing answered so far; a result that follows one is not printed. */
  readonly unanswered: readonly UnansweredInputError[];
}

/** Writes human output; a server's control characters are shown as escapes. */
export function print(text: string): void {
  if (text !== "") process.stdout.write(`${safeText(text)}\n`);
}

/** Writes `--json` output; it parses to `value`, with no raw control character. */
export function printJson(value: unknown): void {
  process.stdout.write(`${safeJson(value)}\n`);
}

/** Reads every page of a listing. */
async function allPages<T>(
  page: (
    cursor: string | undefined,
  ) => Promise<{ nextCursor?: string | undefined } & Record<string, unknown>>,
  field: string,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_LIST_PAGES; pages++) {
    const result = await page(cursor);
    items.push(...((result[field] as T[] | undefined) ?? []));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return items;
}

const paged = (cursor: string | undefined) => (cursor === undefined ? undefined : { cursor });

/** What each listing is called, the capability that offers it, and its result's field. */
const LISTINGS = {
  tools: { label: "tools", capability: "tools", field: "tools" },
  prompts: { label: "prompts", capability: "prompts", field: "prompts" },
  resources: { label: "resources", capability: "resources", field: "resources" },
  templates: { label: "resource templates", capability: "resources", field: "resourceTemplates" },
} as const;

/**
 * Lists tools, prompts, resources or resource templates. A server whose capabilities (from
 * `server/discover` or `initialize`) leave out the kind is not asked (it would answer -32601
 * "Method not found"): the command says it offers none, or prints an empty list with `--json`.
 * Spec: basic/lifecycle §Capability Negotiation.
 */
export async function list(
  client: Client,
  kind: "tools" | "prompts" | "resources" | "templates",
  output: Output,
): Promise<number> {
  const { label, capability, field } = LISTINGS[kind];
  const offered = client.serverCapabilities;
  if (offered !== undefined && offered[capability] === undefined) {
    output.json ? printJson({ [field]: [] }) : print(`this server offers no ${label}`);
    return EXIT_OK;
  }
  switch (kind) {
    case "tools": {
      const tools = await allPages<Parameters<typeof renderTools>[0][number]>(
        (c) => client.listTools(paged(c)),
        "tools",
      );
      output.json
        ? printJson({ tools })
        : print(tools.length === 0 ? "(no tools)" : renderTools(tools, outputWidth()));
      break;
    }
    case "prompts": {
      const prompts = await allPages<Parameters<typeof renderPrompts>[0][number]>(
        (c) => client.listPrompts(paged(c)),
        "prompts",
      );
      output.json
        ? printJson({ prompts })
        : print(prompts.length === 0 ? "(no prompts)" : renderPrompts(prompts, outputWidth()));
      break;
    }
    case "resources": {
      const resources = await allPages<Parameters<typeof renderResources>[0][number]>(
        (c) => client.listResources(paged(c)),
        "resources",
      );
      output.json
        ? printJson({ resources })
        : print(resources.length === 0 ? "(no resources)" : renderResources(resources, outputWidth()));
      break;
    }
    case "templates": {
      const resourceTemplates = await allPages<Parameters<typeof renderTemplates>[0][number]>(
        (c) => client.listResourceTemplates(paged(c)),
        "resourceTemplates",
      );
      output.json
        ? printJson({ resourceTemplates })
        : print(
            resourceTemplates.length === 0
              ? "(no resource templates)"
              : renderTemplates(resourceTemplates, outputWidth()),
          );
      break;
    }
  }
  return EXIT_OK;
}

/** Everything the server lists that its capabilities offer (nothing for what they leave out). */
export async function listAll(client: Client): Promise<{
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  templates: ResourceTemplate[];
}> {
  const offered = client.serverCapabilities;
  const offers = (capability: "tools" | "prompts" | "resources") =>
    offered === undefined || offered[capability] !== undefined;
  return {
    tools: offers("tools") ? await allPages<Tool>((c) => client.listTools(paged(c)), "tools") : [],
    prompts: offers("prompts") ? await allPages<Prompt>((c) => client.listPrompts(paged(c)), "prompts") : [],
    resources: offers("resources")
      ? await allPages<Resource>((c) => client.listResources(paged(c)), "resources")
      : [],
    templates: offers("resources")
      ? await allPages<ResourceTemplate>((c) => client.listResourceTemplates(paged(c)), "resourceTemplates")
      : [],
  };
}

/** What the server said about itself: name, version, protocol, era, capabilities, instructions. */
export async function discover(client: Client, output: Output): Promise<number> {
  const summary = {
    serverInfo: client.serverInfo,
    protocolVersion: client.protocolVersion,
    era: client.era,
    capabilities: client.serverCapabilities,
    instructions: client.instructions,
  };
  if (output.json) printJson(summary);
  else {
    const info = client.serverInfo;
    print(`${info?.name ?? "(unnamed server)"} ${info?.version ?? ""}`.trimEnd());
    print(`protocol ${client.protocolVersion} (${client.era} era)`);
    if (summary.capabilities !== undefined) print(`capabilities ${JSON.stringify(summary.capabilities)}`);
    if (summary.instructions !== undefined) print(`instructions: ${summary.instructions}`);
  }
  return EXIT_OK;
}

/** Splits `name=value` pairs; `convert` turns each value into the argument. */
export function parsePairs<T>(
  pairs: readonly string[],
  convert: (name: string, value: string) => T,
): Record<string, T> {
  const args: Record<string, T> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`arguments must be name=value, got ${JSON.stringify(pair)}`);
    const name = pair.slice(0, at);
    args[name] = convert(name, pair.slice(at + 1));
  }
  return args;
}

/** The tool named `name` as the server lists it; undefined when it lists none such or cannot list. */
export async function findTool(client: Client, name: string): Promise<Tool | undefined> {
  if (client.serverCapabilities !== undefined && client.serverCapabilities.tools === undefined)
    return undefined;
  try {
    const tools = await allPages<Tool>((c) => client.listTools(paged(c)), "tools");
    return tools.find((entry) => entry.name === name);
  } catch {
    return undefined;
  }
}

/** The `type` the tool's input schema gives each property (a string, or the first of a list). */
function propertyTypes(tool: Tool | undefined): Record<string, unknown> {
  const types: Record<string, unknown> = {};
  const properties = (tool?.inputSchema.properties ?? {}) as Record<string, { type?: unknown } | undefined>;
  for (const [name, schema] of Object.entries(properties)) types[name] = schema?.type;
  return types;
}

/** A `name=value` tool argument: the text as it is for a string property, else JSON when it parses. */
function toolArgument(types: Record<string, unknown>, name: string, value: string): unknown {
  const type = types[name];
  if (type === "string" || (Array.isArray(type) && type[0] === "string")) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Runs one call with its progress shown on stderr and the server's log messages written there
 * (info and above; debug too with `-v`); the bar is put away when the call ends.
 *
 * @throws UnansweredInputError when a question went unanswered, even though the server answered
 *   the call anyway (a 2025-era server may turn the refusal into a tool error).
 */
export async function withProgress<T>(output: Output, run: (options: CallOptions) => Promise<T>): Promise<T> {
  const display = progressDisplay(note);
  try {
    const result = await run({
      onProgress: (progress) => display.update(progress),
      logLevel: output.verbose > 0 ? "debug" : "info",
      onLog: writeLog,
    });
    const [unanswered] = output.unanswered;
    if (unanswered !== undefined) throw unanswered;
    return result;
  } finally {
    display.stop();
  }
}

/**
 * The arguments of a tool call: `--args` (a JSON object), then each `name=value` pair over it.
 *
 * @throws UsageError for `--args` that is not a JSON object, or a pair without `=`.
 */
export function toolArguments(
  tool: Tool | undefined,
  pairs: readonly string[],
  argsJson: string | undefined,
): Record<string, unknown> {
  let base: Record<string, unknown> = {};
  if (argsJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(argsJson);
    } catch {
      throw new UsageError(`--args is not JSON: ${argsJson}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new UsageError("--args must be a JSON object");
    }
    base = parsed as Record<string, unknown>;
  }
  const types = propertyTypes(tool);
  return { ...base, ...parsePairs(pairs, (name, value) => toolArgument(types, name, value)) };
}

/**
 * The arguments of a call to `name`, complete: those given, then at a terminal each missing
 * required one (every missing one with `askAll`) asked as a form field. Lists the server's tools
 * to read the tool's `inputSchema`; {@link argumentsFor} takes a tool already listed.
 *
 * @throws UsageError for bad `--args` or pairs, or a form cancelled; MissingArgumentsError when a
 *   required argument is missing and nobody can be asked.
 */
export async function completeArguments(
  client: Client,
  name: string,
  pairs: readonly string[],
  argsJson: string | undefined,
  output: Output,
  askAll = false,
): Promise<Record<string, unknown>> {
  return argumentsFor(name, await findTool(client, name), pairs, argsJson, output, askAll);
}

/**
 * {@link completeArguments} for `tool` as the server listed it (undefined: the server lists no
 * such tool, and the arguments go as given).
 *
 * @throws as {@link completeArguments} does.
 */
export async function argumentsFor(
  name: string,
  tool: Tool | undefined,
  pairs: readonly string[],
  argsJson: string | undefined,
  output: Output,
  askAll = false,
): Promise<Record<string, unknown>> {
  const args = toolArguments(tool, pairs, argsJson);
  if (tool === undefined) return args;
  const interactive = output.interactive === true;
  const missing = missingArguments(tool.inputSchema as JsonSchema, args, askAll && interactive);
  if (missing.length === 0) return args;
  if (!interactive) throw new MissingArgumentsError(name, missing);
  return await askArguments(tool, args, missing);
}

/** Calls a tool; `isError` results exit 1. */
export async function call(
  client: Client,
  tool: string,
  pairs: readonly string[],
  argsJson: string | undefined,
  output: Output,
  park?: ParkOptions,
  askAll = false,
): Promise<number> {
  const args = await completeArguments(client, tool, pairs, argsJson, output, askAll);
  const result = await withProgress(output, (options) =>
    client.callTool(tool, args, park === undefined ? options : { ...options, park }),
  );
  output.json ? printJson(result) : print(renderToolResult(result));
  return result.isError === true ? EXIT_FAILURE : EXIT_OK;
}

/** Gets a prompt (its arguments are strings). */
export async function prompt(
  client: Client,
  name: string,
  pairs: readonly string[],
  output: Output,
  park?: ParkOptions,
): Promise<number> {
  const args = parsePairs(pairs, (_name, value) => value);
  const result = await withProgress(output, (options) =>
    client.getPrompt(name, args, park === undefined ? options : { ...options, park }),
  );
  output.json ? printJson(result) : print(renderPrompt(result));
  return EXIT_OK;
}

/** Reads a resource. */
export async function read(client: Client, uri: string, output: Output, park?: ParkOptions): Promise<number> {
  const result = await withProgress(output, (options) =>
    client.readResource(uri, park === undefined ? options : { ...options, park }),
  );
  output.json ? printJson(result) : print(renderResource(result));
  return EXIT_OK;
}
