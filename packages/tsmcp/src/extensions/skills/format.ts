/**
 * The skill format both sides need: `SKILL.md` front matter (YAML, parsed by the `yaml` library),
 * the Agent Skills naming rules, skill URIs (`<scheme>://<skill-path>/SKILL.md`, the final
 * skill-path segment being the name), SHA-256 digests through Web Crypto, and the field-by-field
 * comparison of front matter. Runtime-neutral.
 * Spec: https://modelcontextprotocol.io/extensions/skills/overview, https://agentskills.io/specification
 */
import { parse as parseYaml } from "yaml";
import { SKILL_MD } from "./wire.js";

/** A skill name: 1 to 64 lowercase letters, digits and hyphens, no hyphen first, last or doubled. */
const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** True when `name` satisfies the Agent Skills naming rules (see https://agentskills.io/specification). */
export function isSkillName(name: string): boolean {
  return SKILL_NAME.test(name);
}

/** Front matter: the `---` line, the YAML, the closing `---` line (a byte order mark and CRLF allowed). */
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** A `SKILL.md` split into its front matter (a JSON object) and the Markdown body after it. */
export interface ParsedSkillMarkdown {
  /** The front matter, every field as the YAML has it. */
  readonly frontmatter: Record<string, unknown>;
  /** The Markdown after the closing `---` line. */
  readonly body: string;
}

/**
 * Splits a `SKILL.md` into front matter and body. Returns a string naming the fault when the text
 * has no front matter block, the YAML does not parse, or it is not a mapping of JSON values.
 */
export function parseSkillMarkdown(text: string): ParsedSkillMarkdown | string {
  const found = FRONTMATTER.exec(text);
  if (found === null) return "SKILL.md does not begin with a --- delimited YAML front matter block";
  let value: unknown;
  try {
    value = parseYaml(found[1] ?? "", { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    return `the front matter is not valid YAML: ${(error as Error).message.split("\n")[0]}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "the front matter is not a YAML mapping";
  const fault = jsonFault(value, "frontmatter");
  if (fault !== undefined) return fault;
  return { frontmatter: value as Record<string, unknown>, body: text.slice(found[0].length) };
}

/** Where `value` holds something JSON cannot carry (a non-finite number, a date, a map), or undefined. */
function jsonFault(value: unknown, path: string): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${path} is not a finite number`;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const fault = jsonFault(item, `${path}[${index}]`);
      if (fault !== undefined) return fault;
    }
    return undefined;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const fault = jsonFault(item, `${path}.${key}`);
      if (fault !== undefined) return fault;
    }
    return undefined;
  }
  return `${path} is not a JSON value`;
}

/**
 * True when two JSON values are equal field by field (objects by their keys in any order, arrays
 * in order). `undefined` and a missing key count as absent.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!jsonEqual(left[key], right[key])) return false;
  return true;
}

/** The fields of two front matter objects that differ, by name (empty when they are equal). */
export function frontmatterDifferences(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !jsonEqual(a[key], b[key])).sort();
}

/**
 * The skill name a `SKILL.md` URI carries: its last path segment before `/SKILL.md`
 * (`skill://acme/billing/refunds/SKILL.md` -> `refunds`); undefined when `uri` names no `SKILL.md`.
 */
export function skillNameOfUri(uri: string): string | undefined {
  const root = skillRootOf(uri);
  if (root === undefined) return undefined;
  const rest = root.slice(root.indexOf("://") + 3);
  const name = rest.slice(rest.lastIndexOf("/") + 1);
  return name === "" ? undefined : name;
}

/**
 * The skill's root directory URI: the `SKILL.md` URI without `/SKILL.md`, no trailing slash;
 * undefined when `uri` is no `<scheme>://<skill-path>/SKILL.md`.
 */
export function skillRootOf(uri: string): string | undefined {
  const scheme = uri.indexOf("://");
  if (scheme <= 0 || !uri.endsWith(`/${SKILL_MD}`)) return undefined;
  const root = uri.slice(0, -SKILL_MD.length - 1);
  return root.length > scheme + 3 ? root : undefined;
}

/**
 * Resolves a reference in a skill (`references/FORMS.md`, `./a/../b.md`) against its root
 * directory; an absolute URI is returned as is. Undefined when the path climbs above the root.
 */
export function resolveSkillReference(root: string, reference: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference)) return reference;
  const segments: string[] = [];
  for (const segment of reference.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.pop() === undefined) return undefined;
      continue;
    }
    segments.push(segment);
  }
  return segments.length === 0 ? undefined : `${root}/${segments.join("/")}`;
}

interface SubtleDigest {
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

/**
 * `sha256:<64 lowercase hex>` of `bytes`, through Web Crypto (`globalThis.crypto.subtle`, present in
 * Node.js 20, Deno, Bun, workerd and browsers).
 *
 * @throws TypeError when the runtime has no Web Crypto.
 */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleDigest } }).crypto?.subtle;
  if (subtle === undefined)
    throw new TypeError("skills: SHA-256 needs Web Crypto (globalThis.crypto.subtle)");
  const digest = new Uint8Array(await subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
