/**
 * The JSON Schema engines themselves, loaded on demand (see `json-schema-loader.ts`): ajv v8 in the
 * 2020-12 dialect with every pattern on RE2, and the interpreter for runtimes that forbid code
 * generation. Nothing outside this module and the interpreter's imports ajv, `@cfworker/json-schema`
 * or re2js, so a server that registers no raw JSON Schema never loads them.
 * Spec: basic/index §JSON Schema Usage.
 */
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import type { JsonValidator } from "./issues.js";
import { interpretJsonSchema } from "./json-schema-interpreted.js";
import { linearRegExp } from "./linear-regexp.js";
import { checkReferenceCycles } from "./schema-shape.js";
import { UNIQUE_ITEMS_KEYWORD } from "./unique-items.js";

let sharedAjv: Ajv2020 | undefined;

/**
 * The one ajv instance of the process, built on the first raw JSON Schema compile (building it
 * costs CPU that a server without raw schemas never needs to spend at import). `addUsedSchema:
 * false` keeps compiled schemas out of its registry (two tools may reuse an `$id`), no
 * `loadSchema` means a `$ref` to anything but the schema itself fails to compile instead of being
 * fetched, and nothing mutates the validated value. Every pattern is evaluated in linear time
 * (see `linearRegExp`). `required` and the other property checks look at own properties only, so
 * `required: ["constructor"]` is not met by `{}`. `uniqueItems` hashes the items (see
 * `UNIQUE_ITEMS_KEYWORD`) instead of the built-in pairwise comparison of untyped items.
 */
function ajv(): Ajv2020 {
  if (sharedAjv === undefined) {
    sharedAjv = new Ajv2020({
      strict: false,
      allErrors: false,
      validateFormats: false,
      addUsedSchema: false,
      logger: false,
      ownProperties: true,
      code: { regExp: linearRegExp },
    });
    sharedAjv.removeKeyword("uniqueItems");
    sharedAjv.addKeyword(UNIQUE_ITEMS_KEYWORD as never);
  }
  return sharedAjv;
}

function pathOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  const params = error.params as {
    missingProperty?: unknown;
    additionalProperty?: unknown;
    unevaluatedProperty?: unknown;
  };
  const property = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  if (typeof property === "string") segments.push(property);
  return segments.join(".");
}

/**
 * Compiles a raw JSON Schema whose dialect is already checked, with the engine `engine` names.
 *
 * @throws TypeError as `compileJsonSchema` documents (the message starts with `where`).
 */
export function compileWithEngine(
  schema: Record<string, unknown>,
  where: string,
  engine: "compiled" | "interpreted",
): JsonValidator {
  if (engine === "interpreted") return interpretJsonSchema(schema, where);
  let validate: ReturnType<Ajv2020["compile"]>;
  try {
    validate = ajv().compile(schema);
  } catch (error) {
    // ajv caches a schema before checking it against the meta-schema: without this, registering
    // the same object again would skip the check and compile it.
    ajv().removeSchema(schema);
    throw new TypeError(`${where} is not a usable JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  checkReferenceCycles(schema, where);
  return (value) => {
    if (validate(value)) return undefined;
    return (validate.errors ?? []).map((error) => ({
      path: pathOf(error),
      message: error.message ?? "is invalid",
    }));
  };
}
