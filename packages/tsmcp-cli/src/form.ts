/**
 * Asks a person at the terminal, with `@clack/prompts` on stderr (stdout stays for the result): an
 * elicitation form becomes one prompt per field of its `requestedSchema` (text with `format` and
 * length checks, numbers within min/max, yes/no, single and multiple choice with titles, defaults,
 * optional fields left empty), invalid input is asked again, and Esc/Ctrl-C offers to decline or
 * cancel. A URL-mode elicitation shows the URL (and opens it with `--open`) and waits for Enter.
 * Spec: client/elicitation §Requested Schema, §URL Mode, client/sampling.
 */
import { spawn } from "node:child_process";
import * as prompts from "@clack/prompts";
import type { InputRequestContext } from "tsmcp/client";
import type {
  CreateMessageRequestParams,
  ElicitRequestParams,
  ElicitResult,
  PrimitiveSchemaDefinition,
} from "tsmcp/types";
import { type Asker, describe, type ElicitContent } from "./elicit-content.js";
import { liveness } from "./liveness.js";
import { pauseProgress } from "./progress.js";
import { isOpenable, safeText } from "./terminal.js";

type FieldValue = ElicitContent[string];

/** The prompts' common options: read the terminal, draw on stderr. */
const io = { input: process.stdin, output: process.stderr } as const;

/** A marker for an optional choice left unanswered. */
const SKIP = "\u0000skip";

/** What went wrong with a typed value, or undefined when it is fine. */
export function checkText(
  schema: PrimitiveSchemaDefinition,
  text: string,
  required: boolean,
): string | undefined {
  if (text === "") return required ? "a value is required" : undefined;
  if (schema.type === "number" || schema.type === "integer") {
    const value = Number(text);
    if (!Number.isFinite(value)) return "enter a number";
    if (schema.type === "integer" && !Number.isInteger(value)) return "enter a whole number";
    if (schema.minimum !== undefined && value < schema.minimum) return `at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `at most ${schema.maximum}`;
    return undefined;
  }
  if (schema.type !== "string" || "enum" in schema || "oneOf" in schema) return undefined;
  const length = [...text].length;
  if (schema.minLength !== undefined && length < schema.minLength)
    return `at least ${schema.minLength} characters`;
  if (schema.maxLength !== undefined && length > schema.maxLength)
    return `at most ${schema.maxLength} characters`;
  switch (schema.format) {
    case "email":
      return /^[^\s@]+@[^\s@]+$/.test(text) ? undefined : "enter an email address";
    case "uri":
      return URL.canParse(text) ? undefined : "enter an absolute URI (scheme:...)";
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))
        ? undefined
        : "enter a date (YYYY-MM-DD)";
    case "date-time":
      return /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text))
        ? undefined
        : "enter a date and time (YYYY-MM-DDThh:mm:ssZ)";
    default:
      return undefined;
  }
}

/** The label of a field: its title (or key), with its description. */
function label(key: string, schema: PrimitiveSchemaDefinition, required: boolean): string {
  const title = schema.title ?? key;
  const hint = schema.type === "string" && "format" in schema && schema.format ? ` (${schema.format})` : "";
  return safeText(
    `${title}${hint}${required ? "" : " (optional)"}${schema.description ? ` — ${schema.description}` : ""}`,
  );
}

/** The enum-bearing parts of a field schema, as the spec's enum shapes give them. */
interface EnumParts {
  enum?: string[];
  enumNames?: string[];
  oneOf?: { const: string; title: string }[];
  items?: { enum?: string[]; anyOf?: { const: string; title: string }[] };
}

/** The choices of an enum field, with their titles; undefined for any other field. */
function choices(schema: PrimitiveSchemaDefinition): { value: string; label: string }[] | undefined {
  const parts = schema as EnumParts;
  const titled = schema.type === "array" ? parts.items?.anyOf : parts.oneOf;
  if (titled !== undefined)
    return titled.map((option) => ({ value: option.const, label: safeText(option.title) }));
  const values = schema.type === "array" ? parts.items?.enum : parts.enum;
  return values?.map((value, i) => ({ value, label: safeText(parts.enumNames?.[i] ?? value) }));
}

/** True of what a prompt resolved with when the person pressed Esc or Ctrl-C. */
export const isCancelled = (value: unknown): value is symbol => prompts.isCancel(value);

/**
 * Asks one field (an elicitation form's, or a tool argument shaped the same way): resolves with
 * its value, `undefined` for an optional one left empty, or a cancel symbol ({@link isCancelled}).
 */
export async function askField(
  key: string,
  schema: PrimitiveSchemaDefinition,
  required: boolean,
): Promise<unknown> {
  const message = label(key, schema, required);
  const options = choices(schema);
  if (schema.type === "boolean") {
    return prompts.confirm({ ...io, message, initialValue: schema.default ?? false });
  }
  if (schema.type === "array" && options !== undefined) {
    const min = schema.minItems ?? (required ? 1 : 0);
    for (;;) {
      const picked = await prompts.multiselect<string>({
        ...io,
        message,
        options,
        required: min > 0,
        ...(schema.default === undefined ? {} : { initialValues: schema.default }),
      });
      if (prompts.isCancel(picked)) return picked;
      if (picked.length >= min && (schema.maxItems === undefined || picked.length <= schema.maxItems))
        return picked;
      prompts.log.warn(`pick ${min} to ${schema.maxItems ?? options.length} options`);
    }
  }
  if (options !== undefined) {
    const all = required ? options : [...options, { value: SKIP, label: "(leave empty)" }];
    const initial = "default" in schema && typeof schema.default === "string" ? schema.default : undefined;
    const picked = await prompts.select<string>({
      ...io,
      message,
      options: all,
      ...(initial ? { initialValue: initial } : {}),
    });
    return picked === SKIP ? undefined : picked;
  }
  const initial = "default" in schema && schema.default !== undefined ? String(schema.default) : undefined;
  const text = await prompts.text({
    ...io,
    message,
    ...(initial === undefined ? {} : { initialValue: initial }),
    validate: (value) => checkText(schema, value ?? "", required),
  });
  if (prompts.isCancel(text) || text === undefined || text === "")
    return prompts.isCancel(text) ? text : undefined;
  return schema.type === "number" || schema.type === "integer" ? Number(text) : text;
}

/** After Esc/Ctrl-C: decline the question, or cancel it. */
async function stopAnswering(key: string): Promise<ElicitResult> {
  const choice = await prompts.select<"decline" | "cancel">({
    ...io,
    message: safeText(`Stop answering ${key}?`),
    options: [
      { value: "decline", label: "Decline (tell the server no)" },
      { value: "cancel", label: "Cancel (dismiss without choosing)" },
    ],
  });
  return { action: prompts.isCancel(choice) ? "cancel" : choice };
}

/**
 * Opens an http(s) URL with the platform's opener, detached; failures are ignored (the URL is
 * printed). Any other scheme is never opened.
 */
function openUrl(url: string): void {
  if (!isOpenable(url)) return;
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  const child = spawn(command as string, args as string[], { detached: true, stdio: "ignore" });
  child.on("error", () => {});
  child.unref();
}

async function elicitForm(params: ElicitRequestParams & { mode?: "form" }): Promise<ElicitResult> {
  const content: ElicitContent = {};
  const required = new Set(params.requestedSchema.required ?? []);
  for (const [key, schema] of Object.entries(params.requestedSchema.properties)) {
    const value = await askField(key, schema, required.has(key));
    if (prompts.isCancel(value)) return stopAnswering(key);
    if (value !== undefined) content[key] = value as FieldValue;
  }
  return { action: "accept", content };
}

/**
 * Runs `task` after every task queued before it: one question at a time on the terminal, though
 * the client answers a round's requests (or a 2025-era server's requests) concurrently.
 */
function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => {});
    return run;
  };
}

/** Runs `ask` with the screen to itself: the progress bar put away, the spinner held. */
async function onScreen<T>(ask: () => Promise<T>): Promise<T> {
  pauseProgress();
  liveness.hold();
  try {
    return await ask();
  } finally {
    liveness.release();
  }
}

/** A person at this terminal, or undefined when stdin or stderr is no terminal. */
export function terminalAsker(options: { open?: boolean }): Asker | undefined {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) return undefined;
  const queue = oneAtATime();
  return {
    elicit: (params, context) => queue(() => onScreen(() => elicit(params, context, options.open === true))),
    sample: (params, context) => queue(() => onScreen(() => sample(params, context))),
  };
}

/** Asks an elicitation, showing the round, the key and the answer given. */
async function elicit(
  params: ElicitRequestParams,
  context: InputRequestContext,
  open: boolean,
): Promise<ElicitResult> {
  prompts.log.step(safeText(`round ${context.round} · ${context.key}: ${params.message}`), io);
  let result: ElicitResult;
  if (params.mode === "url") {
    prompts.log.info(
      safeText(
        isOpenable(params.url) ? `Open ${params.url}` : `Not opening ${params.url}: not an http(s) URL`,
      ),
      io,
    );
    if (open) openUrl(params.url);
    const done = await prompts.select<"accept" | "decline" | "cancel">({
      ...io,
      message: "Press Enter once you are done there",
      options: [
        { value: "accept", label: "Done" },
        { value: "decline", label: "Decline" },
        { value: "cancel", label: "Cancel" },
      ],
    });
    result = { action: prompts.isCancel(done) ? "cancel" : done };
  } else {
    result = await elicitForm(params);
  }
  prompts.log.info(safeText(`${context.key} -> ${describe(result)}`), io);
  return result;
}

/** Asks for the text of a sampling reply, showing the messages; undefined when cancelled. */
async function sample(
  params: CreateMessageRequestParams,
  context: InputRequestContext,
): Promise<string | undefined> {
  prompts.log.step(
    safeText(`round ${context.round} · ${context.key}: the server asks for a model reply`),
    io,
  );
  for (const message of params.messages) {
    const content = message.content as { type?: string; text?: string };
    prompts.log.message(
      safeText(`${message.role}: ${content.type === "text" ? content.text : `[${content.type}]`}`),
      io,
    );
  }
  const text = await prompts.text({ ...io, message: "Reply as the model" });
  return prompts.isCancel(text) ? undefined : text;
}
