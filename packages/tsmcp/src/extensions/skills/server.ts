/**
 * Serving skills from an `MCPServer`: {@link serveSkills} registers the Skills extension
 * (`skills/list`, `skills/get` and, with `directoryRead`, `resources/directory/read`) and every
 * skill file as a resource, so `resources/read` serves the very bytes the manifests describe.
 * Spec: https://modelcontextprotocol.io/extensions/skills/overview
 */
import { invalidParams, methodNotFound } from "../../protocol/errors.js";
import type { Resource } from "../../protocol/schema/content.js";
import { MAX_QUOTED_LENGTH, truncate } from "../../protocol/text.js";
import type { MCPServer } from "../../server/mcp/server.js";
import type { CacheHint } from "../../server/shaping.js";
import { DEFAULT_SKILL_SCHEME, skillEntry, skillFileUri } from "./manifest.js";
import type { SkillSource } from "./source.js";
import { DIRECTORY_MIME_TYPE, SKILL_MD, type Skill, skills } from "./wire.js";

/** Entries per `skills/list` page when no `pageSize` is given: 100. */
export const DEFAULT_SKILLS_PAGE_SIZE = 100;

/** What {@link serveSkills} takes besides the skills. */
export interface ServeSkillsOptions {
  /**
   * Serve `resources/directory/read` on every directory of the served skills (the roots, their
   * subdirectories and the prefix directories) and advertise `directoryRead: true`. Default `true`.
   */
  directoryRead?: boolean;
  /** The URI scheme of the skill files, letters, digits, `+`, `-`, `.`. Default `"skill"`. */
  scheme?: string;
  /** Entries per `skills/list` and children per `resources/directory/read` page. Default 100. */
  pageSize?: number;
  /** Cache hints for `skills/list`, `skills/get` and the files' `resources/read`; unset fields take the server's. */
  cache?: Partial<CacheHint>;
}

/** A file served as a resource: its URI, bytes and listing metadata. */
interface ServedFile {
  readonly uri: string;
  readonly bytes: Uint8Array;
  readonly name: string;
  readonly description?: string;
  readonly mimeType: string;
}

/**
 * Serves `sources` on `mcp` as the Skills extension: each skill file becomes a resource (the
 * `SKILL.md` with `mimeType: "text/markdown"` and its front matter's `name` and `description`;
 * UTF-8 files as text, other files as base64 blobs), `skills/list` pages through the entries in the
 * order given, `skills/get` answers for every skill (-32602 for a URI that names none), and with
 * `directoryRead` `resources/directory/read` lists a directory's direct children (-32602 for a URI
 * that is no directory). Manifests (SHA-256 and size of each file) are computed once, from the
 * bytes served, on first use. A file shared by a skill and a skill nested in it is served once.
 *
 * @example
 * const mcp = new MCPServer("docs");
 * serveSkills(mcp, [skill({ name: "code-review", description: "Review code.", instructions: "# Review\n" })]);
 * @throws TypeError for a source that is no {@link SkillSource}, two skills at one path, one URI
 *   with two different contents, a bad scheme or an option of the wrong type (and what
 *   `mcp.resource` and `mcp.extension` throw, such as a URI already registered); RangeError for a
 *   `pageSize` that is not a positive integer.
 */
export function serveSkills(
  mcp: MCPServer,
  sources: readonly SkillSource[],
  options: ServeSkillsOptions = {},
): MCPServer {
  const {
    directoryRead = true,
    scheme = DEFAULT_SKILL_SCHEME,
    pageSize = DEFAULT_SKILLS_PAGE_SIZE,
    cache,
  } = options;
  if (!Array.isArray(sources)) throw new TypeError("serveSkills: sources must be an array of skills");
  if (typeof directoryRead !== "boolean") throw new TypeError("serveSkills: directoryRead must be a boolean");
  if (typeof scheme !== "string" || !/^[a-z][a-z0-9+.-]*$/i.test(scheme))
    throw new TypeError(`serveSkills: scheme ${JSON.stringify(scheme)} is not a URI scheme`);
  if (!Number.isSafeInteger(pageSize) || pageSize < 1)
    throw new RangeError(`serveSkills: pageSize must be a positive integer, got ${pageSize}`);
  const byUri = new Map<string, SkillSource>();
  for (const source of sources) {
    if (typeof source !== "object" || source === null || !(source.files instanceof Map))
      throw new TypeError(
        "serveSkills: each skill must come from skill(), skillFromFiles() or skillsFromDirectory()",
      );
    const uri = skillFileUri(scheme, source, SKILL_MD);
    if (byUri.has(uri)) throw new TypeError(`serveSkills: two skills at ${uri}`);
    byUri.set(uri, source);
  }
  const files = servedFiles(scheme, sources, byUri);
  for (const file of files.values()) {
    mcp.resource(
      file.uri,
      {
        name: file.name,
        ...(file.description === undefined ? {} : { description: file.description }),
        mimeType: file.mimeType,
        ...(cache === undefined ? {} : { cache }),
      },
      () => asContent(file),
    );
  }

  let entries: Promise<Map<string, Skill>> | undefined;
  const allEntries = () => {
    entries ??= Promise.all(sources.map((source) => skillEntry(source, scheme))).then(
      (list) => new Map(list.map((entry) => [entry.uri, entry])),
    );
    return entries;
  };
  const hints = cache ?? {};
  const directories = directoryRead ? directoryTree(scheme, files) : new Map<string, Resource[]>();

  mcp.extension(skills, {
    settings: directoryRead ? { directoryRead: true } : {},
    handlers: {
      "skills/list": async (_ctx, params) => {
        const list = [...(await allEntries()).values()];
        const start = decodeOffset(params.cursor, list.length);
        const page = list.slice(start, start + pageSize);
        const next = start + pageSize;
        return {
          ...hints,
          skills: structuredClone(page),
          ...(next < list.length ? { nextCursor: encodeOffset(next) } : {}),
        };
      },
      "skills/get": async (_ctx, params) => {
        const entry = (await allEntries()).get(params.uri);
        if (entry === undefined) {
          const uri = truncate(params.uri, MAX_QUOTED_LENGTH);
          throw invalidParams(`No skill is served at ${uri}`, { uri });
        }
        return { ...hints, skill: structuredClone(entry) };
      },
      "resources/directory/read": (_ctx, params) => {
        if (!directoryRead) throw methodNotFound("resources/directory/read");
        const children = directories.get(params.uri);
        if (children === undefined) {
          const uri = truncate(params.uri, MAX_QUOTED_LENGTH);
          throw invalidParams(
            files.has(params.uri) ? `${uri} is not a directory resource` : `No directory is served at ${uri}`,
            { uri },
          );
        }
        const start = decodeOffset(params.cursor, children.length);
        const next = start + pageSize;
        return {
          resources: structuredClone(children.slice(start, next)),
          ...(next < children.length ? { nextCursor: encodeOffset(next) } : {}),
        };
      },
    },
  });
  return mcp;
}

/** Every file to serve by URI; a nested skill's files, listed by both skills, once. */
function servedFiles(
  scheme: string,
  sources: readonly SkillSource[],
  skillsByUri: ReadonlyMap<string, SkillSource>,
): Map<string, ServedFile> {
  const files = new Map<string, ServedFile>();
  for (const source of sources) {
    for (const [path, bytes] of source.files) {
      const uri = skillFileUri(scheme, source, path);
      const seen = files.get(uri);
      if (seen !== undefined) {
        if (!sameBytes(seen.bytes, bytes))
          throw new TypeError(`serveSkills: ${uri} has two different contents`);
        continue;
      }
      const owner = skillsByUri.get(uri);
      const base = path.slice(path.lastIndexOf("/") + 1);
      files.set(
        uri,
        owner === undefined
          ? { uri, bytes, name: base, mimeType: mimeTypeOf(base) }
          : {
              uri,
              bytes,
              name: owner.name,
              description: owner.frontmatter.description,
              mimeType: "text/markdown",
            },
      );
    }
  }
  return files;
}

/** Directory URI -> its direct children (subdirectories first, then files, each by name). */
function directoryTree(scheme: string, files: ReadonlyMap<string, ServedFile>): Map<string, Resource[]> {
  const children = new Map<string, Map<string, Resource>>();
  const prefix = `${scheme}://`;
  for (const file of files.values()) {
    const segments = file.uri.slice(prefix.length).split("/");
    for (let depth = 1; depth < segments.length; depth++) {
      const directory = prefix + segments.slice(0, depth).join("/");
      const childUri = prefix + segments.slice(0, depth + 1).join("/");
      const isFile = depth === segments.length - 1;
      const child: Resource = isFile
        ? { uri: childUri, name: decodeURIComponent(segments[depth] as string), mimeType: file.mimeType }
        : {
            uri: childUri,
            name: decodeURIComponent(segments[depth] as string),
            mimeType: DIRECTORY_MIME_TYPE,
          };
      const listed = children.get(directory) ?? new Map<string, Resource>();
      children.set(directory, listed);
      listed.set(childUri, child);
    }
  }
  const tree = new Map<string, Resource[]>();
  for (const [directory, listed] of children) {
    tree.set(
      directory,
      [...listed.values()].sort((a, b) => {
        const dirA = a.mimeType === DIRECTORY_MIME_TYPE ? 0 : 1;
        const dirB = b.mimeType === DIRECTORY_MIME_TYPE ? 0 : 1;
        return dirA - dirB || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      }),
    );
  }
  return tree;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A file's `resources/read` contents: text when its bytes are UTF-8 (they re-encode to the same bytes), else a blob. */
function asContent(file: ServedFile): string | Uint8Array {
  try {
    return strictUtf8.decode(file.bytes);
  } catch {
    return file.bytes;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, index) => byte === b[index]);
}

/** The MIME type of a file by its extension; `application/octet-stream` when unknown. */
export function mimeTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  const extension = dot < 0 ? "" : fileName.slice(dot + 1).toLowerCase();
  return MIME_TYPES[extension] ?? (dot < 0 ? "text/plain" : "application/octet-stream");
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  html: "text/html",
  css: "text/css",
  csv: "text/csv",
  xml: "application/xml",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/x-typescript",
  py: "text/x-python",
  sh: "text/x-shellscript",
  sql: "application/sql",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
};

/** An opaque page cursor for `offset`. */
function encodeOffset(offset: number): string {
  return btoa(`skills:${offset}`);
}

/**
 * The offset a cursor names (0 when absent).
 *
 * @throws McpError -32602 "Invalid cursor" for a cursor this server did not issue.
 */
function decodeOffset(cursor: string | undefined, length: number): number {
  if (cursor === undefined) return 0;
  let decoded: string;
  try {
    decoded = atob(cursor);
  } catch {
    throw invalidParams("Invalid cursor");
  }
  const found = /^skills:(\d{1,9})$/.exec(decoded);
  const offset = found === null ? Number.NaN : Number(found[1]);
  if (!(offset >= 0 && offset <= length)) throw invalidParams("Invalid cursor");
  return offset;
}
