/**
 * Prompts of an `MCPServer`: the configuration a prompt is registered with (an arguments schema,
 * per-argument completion), its advertised definition built once, and one `prompts/get`: validate
 * the arguments (every round), run the handler, shape its return. Spec: server/prompts.
 */
import type * as z from "zod";
import { invalidParams } from "../../protocol/errors.js";
import type { IconSchema } from "../../protocol/schema/base.js";
import type { Prompt, PromptArgument, PromptMessage } from "../../protocol/schema/content.js";
import type { InputRequiredResult } from "../../protocol/schema/input.js";
import type { GetPromptResult } from "../../protocol/schema/methods.js";
import type { Awaitable } from "../handlers.js";
import { toWireStepError } from "../resolve/ask-errors.js";
import {
  type CompiledSchema,
  compileSchema,
  type InferSchemaOutput,
  requireObjectRoot,
  type SchemaLike,
} from "../schema/compile.js";
import { describeIssues } from "../schema/issues.js";
import { deepFreeze, isPlainObject } from "../schema/json.js";
import type { JsonSchemaObject } from "../schema/json-schema.js";
import type { JsonSchemaValidator } from "../schema/validator-choice.js";
import { type Completer, type Completers, checkCompleters } from "./completion.js";
import { type Context, runHandler } from "./context.js";
import { checkDescriptor, descriptiveFields } from "./descriptor.js";
import { toGetPromptResult } from "./results.js";
import { checkRequiredScopes, requireScopes } from "./scopes.js";

/** The arguments a prompt handler receives: the arguments schema's output type. */
export type PromptArgs<A> = [A] extends [undefined]
  ? Record<string, never>
  : InferSchemaOutput<Exclude<A, undefined>, Record<string, string>>;

/** The argument names of a prompt, for its `complete` option. */
export type PromptArgumentName<A> = [A] extends [undefined]
  ? never
  : Extract<keyof InferSchemaOutput<Exclude<A, undefined>, Record<string, string>>, string>;

/** How a prompt describes itself in `prompts/list`. */
export interface PromptConfig<A extends SchemaLike | undefined = undefined> {
  /** Display name. */
  title?: string;
  /** What the prompt is for; also the result's `description` when the handler gives none. */
  description?: string;
  /**
   * The arguments: an object schema (zod, another Standard Schema with JSON Schema support, or raw
   * JSON Schema) whose properties are the arguments (their `description`s and the `required` list
   * are advertised). Argument values arrive as strings; invalid ones answer -32602 naming the field.
   */
  argsSchema?: A;
  /** Completion for arguments, by name. */
  complete?: Completers<PromptArgumentName<A>>;
  /** Icons a client may show. */
  icons?: z.infer<typeof IconSchema>[];
  /** Extra `_meta` on the prompt definition. */
  _meta?: Record<string, unknown>;
  /**
   * OAuth scopes the request's access token must carry to get it (or, with `MCPServer`'s
   * `hideUnauthorized`, to see it in `prompts/list`); as a tool's `requiredScopes`. Default none.
   */
  requiredScopes?: readonly string[];
}

/**
 * What a prompt may return: a string (one user text message), messages, a full `GetPromptResult`,
 * or an `InputRequiredResult` to ask the client first (hand-built, plaintext `requestState`).
 */
export type PromptReturn = string | PromptMessage[] | GetPromptResult | InputRequiredResult;

/**
 * A prompt's body. Throw an `McpError` to answer with that error; any other throw answers -32603
 * "Internal error" (the cause is logged).
 */
export type PromptHandler<A extends SchemaLike | undefined> = (
  args: PromptArgs<A>,
  ctx: Context,
) => Awaitable<PromptReturn>;

/** A registered prompt. */
export interface PromptEntry {
  /** The `Prompt` listed by `prompts/list` (deeply frozen). */
  readonly definition: Prompt;
  /** Completers by argument name. */
  readonly completers: ReadonlyMap<string, Completer>;
  /** Scopes a caller's token must carry (frozen; empty for none). */
  readonly requiredScopes: readonly string[];
  /** Runs one `prompts/get` with the client's raw arguments. */
  get(args: unknown, ctx: Context): Promise<GetPromptResult | InputRequiredResult>;
}

/** The advertised arguments of an object schema: its properties, with descriptions and `required`. */
function argumentsOf(jsonSchema: JsonSchemaObject): PromptArgument[] {
  const properties = isPlainObject(jsonSchema.properties) ? jsonSchema.properties : {};
  const required = new Set(Array.isArray(jsonSchema.required) ? jsonSchema.required : []);
  return Object.entries(properties).map(([name, property]) => {
    const argument: PromptArgument = { name, required: required.has(name) };
    if (isPlainObject(property) && typeof property.title === "string") argument.title = property.title;
    if (isPlainObject(property) && typeof property.description === "string") {
      argument.description = property.description;
    }
    return argument;
  });
}

function checkConfig(name: string, config: unknown): asserts config is PromptConfig<SchemaLike | undefined> {
  if (typeof name !== "string" || name.length === 0)
    throw new TypeError("prompt name must be a non-empty string");
  checkDescriptor(config, `prompt "${name}"`, ["title", "description", "icons", "_meta"]);
}

/**
 * Prepares a prompt: validates its configuration, compiles its arguments schema once, builds its
 * definition and runner.
 *
 * @throws TypeError for an empty name, a bad config field, a handler that is not a function, an
 *   arguments schema that cannot be used or is not an object schema, or a completer for an unknown
 *   argument. Raw JSON Schemas are validated as `jsonSchemaValidator` says (default `"auto"`).
 */
export function createPrompt(
  name: string,
  config: unknown,
  handler: unknown,
  jsonSchemaValidator?: JsonSchemaValidator,
): PromptEntry {
  checkConfig(name, config);
  if (typeof handler !== "function") throw new TypeError(`prompt "${name}": handler must be a function`);
  let args: CompiledSchema | undefined;
  let advertised: PromptArgument[] = [];
  if (config.argsSchema !== undefined) {
    args = compileSchema(config.argsSchema, "input", `prompt "${name}" argsSchema`, jsonSchemaValidator);
    requireObjectRoot(args.jsonSchema, `prompt "${name}" argsSchema`);
    advertised = argumentsOf(args.jsonSchema);
  }
  const completers = checkCompleters(
    config.complete,
    advertised.map((argument) => argument.name),
    `prompt "${name}"`,
  );
  const definition: Record<string, unknown> = {
    name,
    ...descriptiveFields(config, ["title", "description"]),
    ...(advertised.length > 0 ? { arguments: advertised } : {}),
    ...descriptiveFields(config, ["icons", "_meta"]),
  };
  const body = handler as (args: unknown, ctx: Context) => unknown;
  const description = config.description;
  const requiredScopes = checkRequiredScopes(config.requiredScopes, `prompt "${name}"`);
  return {
    definition: deepFreeze(definition) as Prompt,
    completers,
    requiredScopes,
    async get(rawArgs, ctx) {
      requireScopes(ctx.auth, requiredScopes);
      let value: unknown = {};
      if (args !== undefined) {
        const checked = await args.validate(rawArgs ?? {});
        if (!checked.ok) {
          throw invalidParams(`Invalid arguments for prompt ${name}: ${describeIssues(checked.issues)}`);
        }
        value = checked.value;
      }
      let returned: unknown;
      try {
        returned = await runHandler(body, value, ctx);
      } catch (error) {
        throw toWireStepError(error);
      }
      return toGetPromptResult(returned, name, description);
    },
  };
}
