/**
 * Which engine validates raw JSON Schemas. ajv compiles each schema to JavaScript source and
 * evaluates it, which runtimes that forbid code generation from strings refuse (Cloudflare Workers'
 * workerd: "Code generation from strings disallowed for this context", pages with a strict
 * Content-Security-Policy); there an interpreter walks the schema instead.
 */

/**
 * How raw JSON Schemas (tool, prompt and elicitation schemas given as plain objects) are validated:
 * - `"compiled"`: ajv generates a validator function per schema (fastest; needs `new Function`);
 * - `"interpreted"`: `@cfworker/json-schema` walks the schema on every validation (no code
 *   generation, so it runs where eval is forbidden);
 * - `"auto"`: `"compiled"` where the runtime allows code generation from strings, `"interpreted"`
 *   where it does not (probed once, on the first raw schema).
 *
 * Both accept the same 2020-12 schemas and answer the same valid/invalid; `format` is an annotation
 * for both, and every `pattern` runs on the linear-time engine for both. One limit is the
 * interpreter's own: when an array in the value holds two equal items, it checks `uniqueItems` by
 * comparing items pairwise, and answers a value whose arrays hold more than 10,000,000 item pairs
 * in all (the sum of each array's length squared) invalid as too large to check, whatever the
 * schema says; without equal items, and on the compiled engine, `uniqueItems` takes near-linear time.
 */
export type JsonSchemaValidator = "auto" | "compiled" | "interpreted";

/** The default {@link JsonSchemaValidator}: `"auto"`. */
export const DEFAULT_JSON_SCHEMA_VALIDATOR: JsonSchemaValidator = "auto";

const VALIDATORS: readonly string[] = ["auto", "compiled", "interpreted"];

/**
 * Checks a `jsonSchemaValidator` option (absent is allowed).
 *
 * @throws TypeError naming `owner` when it is not one of `"auto"`, `"compiled"`, `"interpreted"`.
 */
export function checkJsonSchemaValidator(owner: string, value: unknown): void {
  if (value === undefined || (typeof value === "string" && VALIDATORS.includes(value))) return;
  throw new TypeError(
    `${owner} option "jsonSchemaValidator" must be "auto", "compiled" or "interpreted", got ${JSON.stringify(value) ?? typeof value}`,
  );
}

let codeGenerationAllowed: boolean | undefined;

/**
 * True when this runtime evaluates code built from strings (`new Function`), probed once and
 * remembered. False on Cloudflare Workers and under a Content-Security-Policy without
 * `'unsafe-eval'`.
 */
export function canGenerateCode(): boolean {
  if (codeGenerationAllowed === undefined) {
    try {
      // An empty body: the probe runs nothing, it only asks whether the runtime allows it.
      new Function("");
      codeGenerationAllowed = true;
    } catch {
      codeGenerationAllowed = false;
    }
  }
  return codeGenerationAllowed;
}

/** The engine a choice resolves to in this runtime. */
export function resolveJsonSchemaValidator(choice: JsonSchemaValidator): "compiled" | "interpreted" {
  if (choice !== "auto") return choice;
  return canGenerateCode() ? "compiled" : "interpreted";
}
