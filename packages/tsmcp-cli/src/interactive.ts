/**
 * `tsmcp <target>` at a terminal: connected once, a menu of the server's tools, prompts, resources
 * and resource templates (a list filtered as you type); picking one asks its arguments as a form,
 * runs it (its questions asked as every command asks them, progress shown), shows the result, and
 * comes back to the menu. `history` lists the session's calls; Ctrl-D (or Esc) leaves.
 * Spec: server/tools, server/prompts, server/resources.
 */
import * as prompts from "@clack/prompts";
import type { Client } from "tsmcp/client";
import type { Prompt, Resource, ResourceTemplate, Tool } from "tsmcp/types";
import { argumentsFor, listAll, type Output, print, withProgress } from "./commands.js";
import { formatSignature, promptSignature, toolSignature } from "./listing.js";
import { renderPrompt } from "./render.js";
import { SavedFiles, viewResource, viewToolResult } from "./result-view.js";
import { EXIT_OK, UsageError } from "./target.js";
import { safeText } from "./terminal.js";

/** The prompts' common options: read the terminal, draw on stderr. */
const io = { input: process.stdin, output: process.stderr } as const;

/** What the menu offers. */
type Entry =
  | { readonly kind: "tool"; readonly tool: Tool }
  | { readonly kind: "prompt"; readonly prompt: Prompt }
  | { readonly kind: "resource"; readonly resource: Resource }
  | { readonly kind: "template"; readonly template: ResourceTemplate };

/** One call of the session, for `history`. */
interface Done {
  readonly what: string;
  readonly outcome: string;
}

const HISTORY = "\u0000history";
const QUIT = "\u0000quit";

/** At most this many characters of a description follow an entry in the menu. */
const HINT_LENGTH = 60;

const short = (text: string | undefined) =>
  text === undefined
    ? undefined
    : safeText(text.length > HINT_LENGTH ? `${text.slice(0, HINT_LENGTH - 3)}...` : text);

/** The menu's entries, by key. */
async function entriesOf(client: Client): Promise<Map<string, Entry>> {
  const { tools, prompts: promptList, resources, templates } = await listAll(client);
  const entries = new Map<string, Entry>();
  for (const tool of tools) entries.set(`tool ${tool.name}`, { kind: "tool", tool });
  for (const prompt of promptList) entries.set(`prompt ${prompt.name}`, { kind: "prompt", prompt });
  for (const resource of resources) entries.set(`resource ${resource.uri}`, { kind: "resource", resource });
  for (const template of templates) {
    entries.set(`template ${template.uriTemplate}`, { kind: "template", template });
  }
  return entries;
}

/** An entry's line in the menu, and its hint. */
function optionOf(key: string, entry: Entry): { value: string; label: string; hint?: string } {
  const hint = (() => {
    switch (entry.kind) {
      case "tool":
        return entry.tool.title ?? entry.tool.description;
      case "prompt":
        return entry.prompt.title ?? entry.prompt.description;
      case "resource":
        return entry.resource.title ?? entry.resource.name;
      case "template":
        return entry.template.title ?? entry.template.name;
    }
  })();
  const option = { value: key, label: safeText(key) };
  const text = short(hint);
  return text === undefined ? option : { ...option, hint: text };
}

/** An RFC 6570 expression: its operator, then its comma-separated variables. */
const EXPRESSION = /\{([+#./;?&]?)([^}]+)\}/g;

/** The variable names of an expression's list, without their modifiers (`*`, `:3`). */
const variableNames = (list: string) => list.split(",").map((name) => name.replace(/[*]$|:\d+$/, ""));

/** The variables of an RFC 6570 URI template, each once, in order. */
function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(EXPRESSION)].flatMap((match) => variableNames(match[2] ?? "")))];
}

/** Expands an RFC 6570 template (levels 1-3) with single string values. */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(EXPRESSION, (_all, operator: string, list: string) => {
    const names = variableNames(list);
    const present = names.filter((name) => values[name] !== undefined && values[name] !== "");
    if (present.length === 0) return "";
    const encode = operator === "+" || operator === "#" ? encodeURI : encodeURIComponent;
    const parts = present.map((name) => {
      const value = encode(values[name] as string);
      return operator === ";" || operator === "?" || operator === "&" ? `${name}=${value}` : value;
    });
    switch (operator) {
      case "":
      case "+":
        return parts.join(",");
      case "#":
        return `#${parts.join(",")}`;
      case ".":
        return `.${parts.join(".")}`;
      case "/":
        return `/${parts.join("/")}`;
      case ";":
        return `;${parts.join(";")}`;
      case "?":
        return `?${parts.join("&")}`;
      default:
        return `&${parts.join("&")}`;
    }
  });
}

/** Asks a line of text; cancelling stops the run. */
async function askText(message: string, required: boolean): Promise<string> {
  const text = await prompts.text({
    ...io,
    message: safeText(message),
    validate: (value) => (required && (value ?? "") === "" ? "a value is required" : undefined),
  });
  if (prompts.isCancel(text)) throw new UsageError("cancelled");
  return text ?? "";
}

/** What running one entry prints, and how the history names it. */
async function run(
  client: Client,
  entry: Entry,
  output: Output,
  files: SavedFiles,
): Promise<{ text: string; what: string; outcome: string }> {
  switch (entry.kind) {
    case "tool": {
      const { tool } = entry;
      prompts.log.step(safeText(formatSignature(toolSignature(tool))), io);
      const args = await argumentsFor(tool.name, tool, [], undefined, output, true);
      const result = await withProgress(output, (options) => client.callTool(tool.name, args, options));
      return {
        text: await viewToolResult(result, tool.name, files),
        what: `call ${tool.name} ${JSON.stringify(args)}`,
        outcome: result.isError === true ? "tool error" : "ok",
      };
    }
    case "prompt": {
      const { prompt } = entry;
      prompts.log.step(safeText(formatSignature(promptSignature(prompt))), io);
      const args: Record<string, string> = {};
      for (const argument of prompt.arguments ?? []) {
        const label = `${argument.name}${argument.required ? "" : " (optional)"}${argument.description ? ` — ${argument.description}` : ""}`;
        const value = await askText(label, argument.required === true);
        if (value !== "") args[argument.name] = value;
      }
      const result = await withProgress(output, (options) => client.getPrompt(prompt.name, args, options));
      return {
        text: renderPrompt(result),
        what: `prompt ${prompt.name} ${JSON.stringify(args)}`,
        outcome: "ok",
      };
    }
    case "resource": {
      const { uri } = entry.resource;
      const result = await withProgress(output, (options) => client.readResource(uri, options));
      return { text: await viewResource(result, files), what: `read ${uri}`, outcome: "ok" };
    }
    case "template": {
      const { uriTemplate } = entry.template;
      const values: Record<string, string> = {};
      for (const name of templateVariables(uriTemplate)) values[name] = await askText(name, true);
      const uri = expandTemplate(uriTemplate, values);
      const result = await withProgress(output, (options) => client.readResource(uri, options));
      return { text: await viewResource(result, files), what: `read ${uri}`, outcome: "ok" };
    }
  }
}

/** Watches the terminal for Ctrl-D while the menu is up; `arm` gives the menu's abort signal. */
function endOfInput(): { arm(): AbortSignal; dispose(): void } {
  let controller: AbortController | undefined;
  const listener = (chunk: Buffer | string) => {
    if (String(chunk).includes("\u0004")) controller?.abort();
  };
  process.stdin.on("data", listener);
  return {
    arm() {
      controller = new AbortController();
      return controller.signal;
    },
    dispose() {
      process.stdin.off("data", listener);
      controller = undefined;
    },
  };
}

/**
 * The interactive session on `client`; resolves with exit code 0 when the person leaves.
 * `describeFailure` turns a failed run into the line the command would print for it.
 */
export async function interactive(
  client: Client,
  output: Output,
  describeFailure: (error: unknown) => string,
): Promise<number> {
  const entries = await entriesOf(client);
  const history: Done[] = [];
  const files = new SavedFiles();
  const unanswered = output.unanswered as unknown[];
  const eof = endOfInput();
  const name = client.serverInfo?.name ?? "the server";
  prompts.intro(safeText(`${name} (${client.protocolVersion}) — ${entries.size} things to try`), io);
  try {
    for (;;) {
      const options = [
        ...[...entries].map(([key, entry]) => optionOf(key, entry)),
        { value: HISTORY, label: "history", hint: "the calls of this session" },
        { value: QUIT, label: "quit", hint: "or Ctrl-D" },
      ];
      const picked = await prompts.autocomplete<string>({
        ...io,
        message: "Pick a tool, prompt, resource or template (type to filter, Ctrl-D to quit)",
        options,
        maxItems: 12,
        signal: eof.arm(),
      });
      if (prompts.isCancel(picked) || picked === QUIT) break;
      if (picked === HISTORY) {
        prompts.log.info(
          history.length === 0
            ? "no calls yet"
            : history.map((done, i) => `${i + 1}. ${done.what} -> ${done.outcome}`).join("\n"),
          io,
        );
        continue;
      }
      const entry = entries.get(picked);
      if (entry === undefined) continue;
      unanswered.length = 0;
      try {
        const done = await run(client, entry, output, files);
        print(done.text);
        history.push({ what: safeText(done.what), outcome: done.outcome });
      } catch (error) {
        const message = describeFailure(error);
        prompts.log.error(message, io);
        history.push({ what: safeText(picked), outcome: `failed: ${message}` });
      }
    }
  } finally {
    eof.dispose();
  }
  prompts.outro(`${history.length} call${history.length === 1 ? "" : "s"} this session`, io);
  return EXIT_OK;
}
