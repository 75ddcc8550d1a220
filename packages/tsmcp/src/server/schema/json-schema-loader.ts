/**
 * Loads the raw JSON Schema engines (ajv, `@cfworker/json-schema`, re2js) on demand, once per
 * process: the first raw JSON Schema registered starts the import, so a server whose schemas are
 * all zod (or other Standard Schemas) never loads them, and its start-up and bundle do not pay for
 * them.
 */
type Engines = typeof import("./json-schema-compiled.js");

let loaded: Engines | undefined;
let loading: Promise<Engines> | undefined;

/** The engines when they have loaded, `undefined` before. */
export function loadedJsonSchemaEngines(): Engines | undefined {
  return loaded;
}

/** Starts loading the engines (once) and resolves with them. */
export function loadJsonSchemaEngines(): Promise<Engines> {
  loading ??= import("./json-schema-compiled.js").then((engines) => {
    loaded = engines;
    return engines;
  });
  return loading;
}

/**
 * Loads the raw JSON Schema engines now. Raw JSON Schemas (tool, prompt and elicitation schemas
 * given as plain objects) registered after it resolves are compiled, and refused with a
 * `TypeError`, synchronously at registration; before it, the first one starts the load, its
 * compile (and any refusal) comes when the engines arrive, a few milliseconds later, and the first
 * request that needs it waits for them once. Call it at start-up to keep every refusal at
 * registration, or before `readElicitation` with a raw JSON Schema in a process that registers
 * none (that one answers synchronously, so it cannot wait). Servers whose schemas are all zod or
 * other Standard Schemas never need it. Resolves once loaded; idempotent.
 *
 * Spec: basic/index §JSON Schema Usage.
 */
export async function preloadJsonSchemaEngines(): Promise<void> {
  await loadJsonSchemaEngines();
}
