/**
 * Reading skills from a server, verified: {@link listSkills} and {@link getSkill} fetch entries
 * (never a file), {@link loadSkill} reads a skill's `SKILL.md` and checks it against the entry it
 * keeps (size, SHA-256 digest, front matter field by field), and {@link LoadedSkill.readFile} reads
 * a supporting file only when the kept manifest lists it, checked the same way. Content that fails
 * a check is never returned: {@link SkillVerificationError} says which check. Nothing is fetched
 * ahead of need. Spec: https://modelcontextprotocol.io/extensions/skills/overview (Integrity and Verification)
 */
import type { CallOptions, Client } from "../../client/client.js";
import { InvalidServerResponseError } from "../../client/errors.js";
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";
import type { ReadResourceResult } from "../../protocol/schema/methods.js";
import {
  frontmatterDifferences,
  parseSkillMarkdown,
  resolveSkillReference,
  sha256Digest,
  skillNameOfUri,
  skillRootOf,
  utf8,
} from "./format.js";
import { type Skill, type SkillFrontmatter, type SkillResource, skills } from "./wire.js";

/** The most `skills/list` pages {@link listSkills} follows before it stops: 1000. */
export const MAX_SKILLS_PAGES = 1000;

/** Which check a skill failed. */
export type SkillVerificationReason =
  /** The bytes read are not as long as the manifest's `size`. */
  | "size"
  /** The bytes read do not hash to the manifest's `digest`. */
  | "digest"
  /** The `SKILL.md` front matter is missing, does not parse, or differs from the entry's `frontmatter`. */
  | "frontmatter"
  /** The file is not in the kept manifest (or not within the skill's directory). */
  | "not-in-manifest"
  /** The entry publishes no manifest (`resources: "dynamic"`) and the caller did not accept that. */
  | "dynamic"
  /** The entry itself breaks the rules (its URI names no `SKILL.md`, the name differs, the manifest lacks `SKILL.md`). */
  | "invalid-entry"
  /** The server's `resources/read` answer holds no contents for the URI. */
  | "no-content";

/**
 * A skill's content failed verification against the entry the client holds, so it was not used:
 * `reason` names the check, `uri` the file, `skillUri` the skill. Refresh the entry with
 * {@link getSkill} and load again (a changed manifest needs the user's approval again).
 * Spec: https://modelcontextprotocol.io/extensions/skills/overview (Integrity and Verification)
 */
export class SkillVerificationError extends TsmcpError {
  override readonly name = "SkillVerificationError";
  /** `"ERR_SKILL_VERIFICATION"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.SkillVerificationError;
  /** The check that failed. */
  readonly reason: SkillVerificationReason;
  /** The file that failed it. */
  readonly uri: string;
  /** The `SKILL.md` URI of the skill. */
  readonly skillUri: string;

  constructor(reason: SkillVerificationReason, uri: string, skillUri: string, detail: string) {
    super(`Skill ${skillUri}: ${uri} failed ${reason} verification: ${detail}`);
    this.reason = reason;
    this.uri = uri;
    this.skillUri = skillUri;
  }
}

/**
 * `skills/list`, every page: the entries the server lists (it may list only some; a skill missing
 * here can still be loaded by URI). Reads no file.
 *
 * @throws ExtensionNotSupportedError when the server does not declare the Skills extension;
 *   InvalidServerResponseError when a page breaks the schema or the cursors loop (or pass
 *   {@link MAX_SKILLS_PAGES}); McpError for an error answer.
 */
export async function listSkills(client: Client, options: CallOptions = {}): Promise<Skill[]> {
  const all: Skill[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_SKILLS_PAGES; page++) {
    const result = await client.requestExtension(
      skills,
      "skills/list",
      cursor === undefined ? {} : { cursor },
      options,
    );
    all.push(...result.skills);
    cursor = result.nextCursor;
    if (cursor === undefined) return all;
    if (seen.has(cursor)) break;
    seen.add(cursor);
  }
  throw new InvalidServerResponseError(
    `skills/list did not end: the server repeated a cursor or sent more than ${MAX_SKILLS_PAGES} pages`,
  );
}

/**
 * `skills/get`: the current entry of the skill whose `SKILL.md` is at `uri` (also one the listing
 * does not show). Reads no file.
 *
 * @throws ExtensionNotSupportedError when the server does not declare the Skills extension; McpError
 *   -32602 when the server serves no skill at `uri`; InvalidServerResponseError for a bad answer.
 */
export async function getSkill(client: Client, uri: string, options: CallOptions = {}): Promise<Skill> {
  const result = await client.requestExtension(skills, "skills/get", { uri }, options);
  return result.skill;
}

/** What {@link loadSkill} takes besides the skill. */
export interface LoadSkillOptions extends CallOptions {
  /**
   * Accept an entry with `resources: "dynamic"` (no manifest: its `SKILL.md` is checked against the
   * front matter only, and any file within its directory may be read, unverified). Default `false`:
   * such a skill is refused with reason `"dynamic"`.
   */
  allowDynamic?: boolean;
}

/** A file of a loaded skill, verified against the kept manifest. */
export interface SkillFile {
  /** Its resource URI. */
  readonly uri: string;
  /** The MIME type the server gave, if any. */
  readonly mimeType: string | undefined;
  /** Its raw bytes (the ones the digest covers). */
  readonly bytes: Uint8Array;
  /** The bytes as UTF-8 text, when the server sent text. */
  readonly text: string | undefined;
}

/**
 * A skill loaded from a server: its `SKILL.md` verified against `entry`, which it keeps for every
 * later {@link LoadedSkill.readFile}. Refresh it by loading again after {@link getSkill}.
 */
export class LoadedSkill {
  /** The entry it was loaded under, kept while the skill is in use. */
  readonly entry: Skill;
  /** The verified `SKILL.md` text. */
  readonly text: string;
  /** The Markdown body after the front matter. */
  readonly body: string;
  readonly #client: Client;
  readonly #options: CallOptions;

  /** @internal Built by {@link loadSkill}. */
  constructor(client: Client, entry: Skill, text: string, body: string, options: CallOptions) {
    this.#client = client;
    this.entry = entry;
    this.text = text;
    this.body = body;
    this.#options = options;
  }

  /** The `SKILL.md` URI (the skill's identity on its server). */
  get uri(): string {
    return this.entry.uri;
  }

  /** The skill's name (a label, not unique). */
  get name(): string {
    return this.entry.frontmatter.name;
  }

  /** The front matter, as the entry has it and the file confirmed. */
  get frontmatter(): SkillFrontmatter {
    return this.entry.frontmatter;
  }

  /** The skill's root directory URI (no trailing slash). */
  get root(): string {
    return skillRootOf(this.entry.uri) as string;
  }

  /** The manifest's file URIs (`SKILL.md` included); empty for a dynamic skill. */
  get files(): readonly string[] {
    return Array.isArray(this.entry.resources) ? this.entry.resources.map((r) => r.uri) : [];
  }

  /**
   * Reads one of the skill's files: `reference` is a path relative to the skill's root
   * (`references/FORMS.md`) or a full URI. Only a URI the kept manifest lists is read, and its
   * bytes are checked against the manifest's size and digest before they are returned.
   *
   * @throws SkillVerificationError `"not-in-manifest"` for a file the manifest does not list (no
   *   request is sent), `"size"` or `"digest"` for content that does not match, `"no-content"` for
   *   an answer without it; McpError for an error answer.
   */
  async readFile(reference: string, options: CallOptions = this.#options): Promise<SkillFile> {
    const uri = resolveSkillReference(this.root, reference);
    const manifest = this.entry.resources;
    if (uri === undefined)
      throw new SkillVerificationError(
        "not-in-manifest",
        reference,
        this.uri,
        "the path leaves the skill's directory",
      );
    const listed = Array.isArray(manifest) ? manifest.find((r) => r.uri === uri) : undefined;
    if (Array.isArray(manifest) && listed === undefined)
      throw new SkillVerificationError(
        "not-in-manifest",
        uri,
        this.uri,
        "the kept manifest does not list it",
      );
    if (!Array.isArray(manifest) && !uri.startsWith(`${this.root}/`))
      throw new SkillVerificationError(
        "not-in-manifest",
        uri,
        this.uri,
        "it is outside the skill's directory",
      );
    const read = await readBytes(this.#client, uri, this.uri, options);
    if (listed !== undefined) await verifyBytes(read.bytes, listed, this.uri);
    return read;
  }
}

/**
 * Loads a skill: given an entry (from {@link listSkills}) it keeps that entry, given a URI it asks
 * `skills/get` first; then reads its `SKILL.md` and verifies the bytes against the manifest's size
 * and digest and the parsed front matter against the entry's, field by field. Supporting files are
 * read later, one by one, with {@link LoadedSkill.readFile}.
 *
 * @throws SkillVerificationError when the entry is invalid (`"invalid-entry"`), dynamic and not
 *   allowed (`"dynamic"`), or the `SKILL.md` fails a check (`"size"`, `"digest"`, `"frontmatter"`);
 *   what {@link getSkill} and `client.readResource` throw.
 */
export async function loadSkill(
  client: Client,
  skill: Skill | string,
  options: LoadSkillOptions = {},
): Promise<LoadedSkill> {
  const { allowDynamic = false, ...callOptions } = options;
  const entry =
    typeof skill === "string" ? await getSkill(client, skill, callOptions) : structuredClone(skill);
  const fault = entryFault(entry);
  if (fault !== undefined) throw new SkillVerificationError("invalid-entry", entry.uri, entry.uri, fault);
  if (entry.resources === "dynamic" && !allowDynamic)
    throw new SkillVerificationError(
      "dynamic",
      entry.uri,
      entry.uri,
      "the entry publishes no manifest; pass allowDynamic: true to load it unverified",
    );
  const read = await readBytes(client, entry.uri, entry.uri, callOptions);
  if (Array.isArray(entry.resources)) {
    const listed = entry.resources.find((r) => r.uri === entry.uri) as SkillResource;
    await verifyBytes(read.bytes, listed, entry.uri);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(read.bytes);
  } catch {
    throw new SkillVerificationError("frontmatter", entry.uri, entry.uri, "SKILL.md is not UTF-8 text");
  }
  const parsed = parseSkillMarkdown(text);
  if (typeof parsed === "string")
    throw new SkillVerificationError("frontmatter", entry.uri, entry.uri, parsed);
  const differences = frontmatterDifferences(parsed.frontmatter, entry.frontmatter);
  if (differences.length > 0)
    throw new SkillVerificationError(
      "frontmatter",
      entry.uri,
      entry.uri,
      `the file's front matter differs from the entry's in ${differences.join(", ")}`,
    );
  return new LoadedSkill(client, entry, text, parsed.body, callOptions);
}

/** What is wrong with an entry, or undefined. */
function entryFault(entry: Skill): string | undefined {
  const root = skillRootOf(entry.uri);
  if (root === undefined) return "its uri names no <scheme>://<skill-path>/SKILL.md";
  const name = skillNameOfUri(entry.uri);
  if (name !== entry.frontmatter.name)
    return `the last skill-path segment "${name}" differs from frontmatter.name "${entry.frontmatter.name}"`;
  if (entry.resources === "dynamic") return undefined;
  if (!entry.resources.some((r) => r.uri === entry.uri)) return "its manifest does not list its SKILL.md";
  const outside = entry.resources.find((r) => r.uri !== entry.uri && !r.uri.startsWith(`${root}/`));
  if (outside !== undefined) return `its manifest lists ${outside.uri}, outside the skill's directory`;
  return undefined;
}

/** Checks `bytes` against a manifest entry: the size first, then the digest. */
async function verifyBytes(bytes: Uint8Array, listed: SkillResource, skillUri: string): Promise<void> {
  if (bytes.byteLength !== listed.size)
    throw new SkillVerificationError(
      "size",
      listed.uri,
      skillUri,
      `read ${bytes.byteLength} bytes, the manifest says ${listed.size}`,
    );
  const digest = await sha256Digest(bytes);
  if (digest !== listed.digest)
    throw new SkillVerificationError(
      "digest",
      listed.uri,
      skillUri,
      `read ${digest}, the manifest says ${listed.digest}`,
    );
}

/** `resources/read` of `uri`: the raw bytes of the item for it (UTF-8 of text, or the decoded blob). */
async function readBytes(
  client: Client,
  uri: string,
  skillUri: string,
  options: CallOptions,
): Promise<SkillFile> {
  const result: ReadResourceResult = await client.readResource(uri, options);
  const item =
    result.contents.find((c) => c.uri === uri) ??
    (result.contents.length === 1 ? result.contents[0] : undefined);
  if (item !== undefined && typeof item.text === "string")
    return { uri, mimeType: item.mimeType, bytes: utf8(item.text), text: item.text };
  if (item !== undefined && typeof item.blob === "string")
    return { uri, mimeType: item.mimeType, bytes: fromBase64(item.blob), text: undefined };
  throw new SkillVerificationError(
    "no-content",
    uri,
    skillUri,
    "the server's answer holds no contents for it",
  );
}

function fromBase64(blob: string): Uint8Array {
  const binary = atob(blob);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
