/**
 * The `elicit` marker: a resolver returns `elicit(message, schema)` to ask the user to fill a form.
 * The schema is compiled and rendered as a flat `requestedSchema` when the marker is built (once per
 * schema object), and the accepted content is validated against it. Spec: client/elicitation (form
 * mode).
 */
import type { ElicitRequest, RequestedSchema } from "../../protocol/schema/input.js";
import {
  type CompiledSchema,
  compileSchema,
  type SchemaLike,
  type ValidationResult,
} from "../schema/compile.js";
import type { ElicitationContentOf } from "../schema/elicitation-answer.js";
import { deepFreeze } from "../schema/json.js";
import { questionDigest } from "./digest.js";
import { toRequestedSchema } from "./requested-schema.js";

interface CompiledForm {
  readonly schema: CompiledSchema;
  readonly requestedSchema: RequestedSchema;
}

/** Forms compiled so far, by schema object: a schema hoisted out of the resolver compiles once. */
const compiledForms = new WeakMap<object, CompiledForm>();

function compileForm(schema: unknown): CompiledForm {
  const cached = typeof schema === "object" && schema !== null ? compiledForms.get(schema) : undefined;
  if (cached !== undefined) return cached;
  const compiled = compileSchema(schema, "input", "elicit: schema");
  const form: CompiledForm = {
    schema: compiled,
    requestedSchema: deepFreeze(toRequestedSchema(compiled.jsonSchema, "elicit: schema")),
  };
  if (typeof schema === "object" && schema !== null) compiledForms.set(schema, form);
  return form;
}

/**
 * A form elicitation a resolver asks for; the resolver's value is the accepted content, typed `T`
 * (the schema's output). Build it with {@link elicit}.
 */
export class ElicitMarker<T> {
  /** Which kind of question this is. */
  readonly kind = "elicit" as const;
  /** The rendered request: `elicitation/create` in form mode (deeply frozen). */
  readonly request: ElicitRequest;
  /** The digest of the rendered params (see `questionDigest`). */
  readonly digest: string;
  readonly #schema: CompiledSchema<T>;

  /** Use {@link elicit}. @throws as `elicit` does. */
  constructor(message: string, schema: SchemaLike) {
    if (typeof message !== "string" || message.trim() === "") {
      throw new TypeError("elicit: message must be a non-empty string");
    }
    const form = compileForm(schema);
    const params = { mode: "form" as const, message, requestedSchema: form.requestedSchema };
    this.request = deepFreeze({ method: "elicitation/create", params });
    this.digest = questionDigest(params);
    this.#schema = form.schema as CompiledSchema<T>;
    Object.freeze(this);
  }

  /** Validates accepted content against the schema (its output, e.g. defaults applied, on success). */
  async validate(content: unknown): Promise<ValidationResult<T>> {
    return await this.#schema.validate(content);
  }
}

/**
 * Asks the user to fill a form (form-mode elicitation), from inside a resolver:
 *
 * ```ts
 * const region = resolver("region", ({ args }) =>
 *   elicit(`Which region should ${String(args.name)} live in?`, z.object({ region: z.enum(REGIONS) })));
 * ```
 *
 * `schema` is a zod object schema, another Standard Schema with JSON Schema support, or a raw JSON
 * Schema object; it must be expressible as a flat `requestedSchema`: properties that are strings
 * (`minLength`, `maxLength`, `format` email / uri / date / date-time), numbers or integers
 * (`minimum`, `maximum`), booleans, or enums (single or multi-select, titled or untitled). The
 * consumer receives the accepted content as the schema's output type; raw JSON Schema gives
 * `ElicitationContent`. The question must be deterministic (same arguments and answers, same
 * message and schema): a changed question is asked again. Spec: client/elicitation.
 *
 * @throws TypeError for an empty message, a schema that cannot be compiled, or one that is not a
 *   flat form (the message names the property and what the wire cannot express).
 */
export function elicit<S extends SchemaLike>(
  message: string,
  schema: S,
): ElicitMarker<ElicitationContentOf<S>> {
  return new ElicitMarker(message, schema);
}
