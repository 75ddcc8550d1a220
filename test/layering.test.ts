/**
 * The package layering of DESIGN.md, enforced: imports flow protocol <- state <- transport <- server |
 * client, and server and client never import each other; state/ (the state seams and their
 * in-memory defaults) sits on the wire layer alone, so the transports (the HTTP sessions) and the
 * server and client all build on it. Inside server/, the core (its top-level
 * files, server/legacy, its 2025-era path, server/tasks, the tasks engine the core serves the
 * `tasks/*` methods with, and server/telemetry, its request spans) and server/schema sit lowest, then server/state, then
 * server/resolve, then server/mcp; server/auth depends on the core alone (and nothing but the entry
 * imports it); server/index.ts, the entry point, may import every server layer. client/auth (OAuth)
 * sits under the client on the transport's hook alone: the client may import it, never the reverse.
 * The package's own entry names (`import("tsmcp/stdio")`) count as the layer they resolve to.
 * The command (packages/tsmcp-cli) is another package: it imports the SDK through its public
 * client-side entries only (never `tsmcp/server`, never a path into the SDK's sources). So is
 * tsmcp-redis (packages/tsmcp-redis), the Redis state stores: through `tsmcp/state` alone. Nothing
 * in the SDK imports either package.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The SDK's sources (packages/tsmcp/src), where the layers live. */
const root = join(repo, "packages", "tsmcp", "src");
/** The command's sources (packages/tsmcp-cli/src): a package on the SDK's public entries only. */
const cliRoot = join(repo, "packages", "tsmcp-cli", "src");
/** The Redis state stores' sources (packages/tsmcp-redis/src): a package on `tsmcp/state` only. */
const redisRoot = join(repo, "packages", "tsmcp-redis", "src");

const SERVER_LAYERS = [
  "server",
  "server/schema",
  "server/state",
  "server/resolve",
  "server/mcp",
  "server/auth",
];

/**
 * The server side of the HTTP transport: the shared leaves of transport/http, the web-standard
 * handler (transport/http/server) and its sessions (transport/http/session), which use each other.
 */
const HTTP_SERVER = ["transport/http", "transport/http/server", "transport/http/session"];
/** The client side of the HTTP transport: the shared leaves and the client transport. */
const HTTP_CLIENT = ["transport/http", "transport/http/client"];

/** For each layer, the layers its modules may import (itself included). */
const ALLOWED: Record<string, string[]> = {
  protocol: ["protocol"],
  /** OpenTelemetry spans, metrics and propagation: on the wire layer alone, used by both sides. */
  telemetry: ["protocol", "telemetry"],
  /** The transport core; its entry (transport/index.ts) re-exports the HTTP transport's entry. */
  transport: ["protocol", "state", "transport", "transport/http/entry"],
  /** Modules both HTTP sides share (header names, the exchange types): leaves on the core alone. */
  "transport/http": ["protocol", "state", "transport", "transport/http"],
  /** The web-standard handler: never the client side, nor the Node adapters. */
  "transport/http/server": ["protocol", "state", "transport", ...HTTP_SERVER],
  /** The server's HTTP sessions: on the handler's parts, never the client side. */
  "transport/http/session": ["protocol", "state", "transport", ...HTTP_SERVER],
  /** The `node:http` adapter and the framework adapters: on the handler. */
  "transport/http/node": ["protocol", "state", "transport", ...HTTP_SERVER, "transport/http/node"],
  /** The Durable Object session adapter (tsmcp/workers): on the handler, never the client side. */
  "transport/http/workers": ["protocol", "state", "transport", ...HTTP_SERVER, "transport/http/workers"],
  /** The HTTP client transport: never the server side. */
  "transport/http/client": ["protocol", "state", "transport", ...HTTP_CLIENT],
  /** transport/http/index.ts, the HTTP transport's entry: both sides. */
  "transport/http/entry": ["protocol", "state", "transport", ...HTTP_SERVER, "transport/http/client"],
  /** The state seams (sessions, events, bus, replay cache) and their in-memory defaults: on the wire layer alone. */
  state: ["protocol", "state"],
  "server/schema": ["protocol", "server/schema"],
  server: ["protocol", "transport", ...HTTP_SERVER, "state", "server", "server/schema"],
  "server/state": [
    "protocol",
    "transport",
    ...HTTP_SERVER,
    "state",
    "server",
    "server/schema",
    "server/state",
  ],
  "server/resolve": [
    "protocol",
    "transport",
    "state",
    ...HTTP_SERVER,
    "server",
    "server/schema",
    "server/state",
    "server/resolve",
  ],
  "server/mcp": [
    "protocol",
    "transport",
    "state",
    ...HTTP_SERVER,
    "server",
    "server/schema",
    "server/state",
    "server/resolve",
    "server/mcp",
  ],
  /** Bearer auth, token verifiers, resource metadata: on the core only, beside the sealing layers. */
  "server/auth": ["protocol", "state", "transport", ...HTTP_SERVER, "server", "server/auth"],
  "server/entry": ["protocol", "transport", ...HTTP_SERVER, "state", ...SERVER_LAYERS],
  client: ["protocol", "transport", ...HTTP_CLIENT, "state", "client", "client/auth"],
  /** OAuth for the HTTP client transport: on the wire layer and the transport's hook alone. */
  "client/auth": ["protocol", "state", "transport", ...HTTP_CLIENT, "client/auth"],
  /** The Node-only entry points (tsmcp/node, tsmcp/stdio) re-export transports. */
  node: ["protocol", "state", "transport", ...HTTP_SERVER, "transport/http/node", "node"],
  stdio: ["protocol", "state", "transport", "stdio"],
  /** The test harness drives a server through the client, in this process. */
  testing: ["protocol", "state", "transport", "client", "testing"],
};
/**
 * The extensions built on the SDK (packages/tsmcp/src/extensions/<name>/): the shared part (wire
 * declaration, format) on the wire layer alone; `server*.ts` on the server layers; `client*.ts` on
 * the client; the entry (index.ts, `tsmcp/<name>`) on all three. tsmcp/node may use the shared part
 * (reading skills from disk).
 */
const EXTENSIONS = ["skills", "apps"];
for (const name of EXTENSIONS) {
  const shared = `extensions/${name}`;
  ALLOWED[shared] = ["protocol", shared];
  ALLOWED[`${shared}/server`] = [...(ALLOWED["server/entry"] as string[]), shared, `${shared}/server`];
  ALLOWED[`${shared}/client`] = [...(ALLOWED.client as string[]), shared, `${shared}/client`];
  ALLOWED[`${shared}/entry`] = [shared, `${shared}/server`, `${shared}/client`, "protocol"];
  (ALLOWED.node as string[]).push(shared);
}
// Telemetry sits on the wire layer: every layer above it (transports, server, client) may record.
for (const [layer, allowed] of Object.entries(ALLOWED)) {
  if (!["protocol", "state", "telemetry"].includes(layer)) allowed.push("telemetry");
}

/** The layer each package entry name resolves to; a bare `tsmcp` (the package has no root entry) is in none. */
const PACKAGE_ENTRIES: Record<string, string> = {
  tsmcp: "index",
  "tsmcp/types": "protocol",
  "tsmcp/transport": "transport",
  "tsmcp/server": "server/entry",
  "tsmcp/client": "client",
  "tsmcp/client/auth": "client/auth",
  "tsmcp/state": "state",
  "tsmcp/workers": "transport/http/workers",
  "tsmcp/node": "node",
  "tsmcp/stdio": "stdio",
  "tsmcp/telemetry": "telemetry",
  "tsmcp/skills": "extensions/skills/entry",
  "tsmcp/apps": "extensions/apps/entry",
  "tsmcp/testing": "testing",
};

/**
 * Layers a layer may load only on demand, with a dynamic `import()` of the package entry: the
 * client spawns a stdio server through `import("tsmcp/stdio")` when `Client.connect` is given a
 * command, so tsmcp/client itself stays runtime-neutral.
 */
const ALLOWED_LAZY: Record<string, string[]> = {
  client: ["stdio"],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !/[.-]test(-fixtures)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The layer of a file under src/: its top folder, or for server/ its sub-layer (`server` for the
 * core's top-level files, server/legacy, server/tasks and server/telemetry, `server/entry` for server/index.ts), or `client/auth`
 * for client/auth/, or for transport/http/ its side (see {@link httpLayerOf}); undefined outside
 * every layer
 * (src/index.ts). A folder the table does not know is its own layer, which nothing may import.
 */
function layerOf(file: string): string | undefined {
  const parts = relative(root, file).split("/");
  const [top, sub] = parts;
  if (top === undefined || parts.length === 1) return undefined;
  if (top === "client") return sub === "auth" && parts.length > 2 ? "client/auth" : "client";
  if (top === "transport" && sub === "http" && parts.length > 2) return httpLayerOf(parts.slice(2));
  if (top === "extensions" && sub !== undefined && parts.length > 2)
    return extensionLayerOf(sub, parts.slice(2));
  if (top !== "server") return top;
  if (parts.length === 2) return sub === "index.ts" ? "server/entry" : "server";
  if (sub === "legacy" || sub === "tasks" || sub === "telemetry") return "server";
  return `server/${sub}`;
}

/**
 * The layer of a file of extension `name` (given as its parts below extensions/<name>/): the entry
 * for index.ts, the server part for `server*.ts`, the client part for `client*.ts`, else the shared part.
 */
function extensionLayerOf(name: string, parts: string[]): string {
  const file = parts.join("/");
  if (file === "index.ts") return `extensions/${name}/entry`;
  if (file.startsWith("server")) return `extensions/${name}/server`;
  if (file.startsWith("client")) return `extensions/${name}/client`;
  return `extensions/${name}`;
}

/**
 * The layer of a path under transport/http/ (given as its parts below that folder): a subfolder's
 * (`transport/http/server`, `.../node`, `.../client`, `.../session`), `transport/http/entry` for
 * its index.ts, `transport/http` for the shared leaves beside them.
 */
function httpLayerOf(parts: string[]): string {
  const [first] = parts;
  if (parts.length > 1) return `transport/http/${first}`;
  return /^index\.[jt]s$/.test(first ?? "") ? "transport/http/entry" : "transport/http";
}

/** The layer an import specifier names from `path`: a relative path's, or a package entry's. */
function targetOf(path: string, specifier: string): string | undefined {
  if (specifier.startsWith(".")) return layerOf(resolve(dirname(path), specifier));
  return PACKAGE_ENTRIES[specifier];
}

/** The wrong-way imports in `files` (paths under src/ with their text). */
function violations(files: { path: string; text: string }[], lazy = ALLOWED_LAZY): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const layer = layerOf(path);
    if (layer === undefined) continue;
    for (const match of text.matchAll(/(from|import)\s*(\(?)\s*["'](\.[^"']+|tsmcp(?:\/[^"']+)?)["']/g)) {
      const specifier = match[3] as string;
      const target = targetOf(path, specifier);
      if (target === undefined || (ALLOWED[layer] ?? [layer]).includes(target)) continue;
      const dynamic = match[1] === "import" && match[2] === "(";
      if (dynamic && (lazy[layer] ?? []).includes(target)) continue;
      found.push(`${relative(root, path)} (${layer}) imports ${specifier} (${target})`);
    }
  }
  return found;
}

describe("layering", () => {
  const files = sourceFiles(root).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("imports flow one way, server and client never import each other, nor server's sub-layers upward", () => {
    expect(files.length).toBeGreaterThan(10);
    expect(violations(files)).toEqual([]);
  });

  it("knows the layer of every source file (a new folder gets a row in the table)", () => {
    const unknown = files
      .map(({ path }) => layerOf(path))
      .filter((layer) => layer !== undefined && !(layer in ALLOWED));
    expect(unknown).toEqual([]);
  });

  it("keeps server/auth on the core: it may not import the sealing or MCPServer layers, nor they it", () => {
    const imports = [
      { path: join(root, "server/auth/a.ts"), text: 'import { x } from "../state/policy.js";' },
      { path: join(root, "server/auth/b.ts"), text: 'import { x } from "../mcp/server.js";' },
      { path: join(root, "server/mcp/c.ts"), text: 'import { bearerAuth } from "../auth/bearer.js";' },
      {
        path: join(root, "server/auth/d.ts"),
        text: 'import { principalOf } from "../../transport/dispatcher.js";',
      },
    ];
    expect(violations(imports)).toHaveLength(3);
  });

  it("keeps client/auth under the client: it may not import the client, the client may import it", () => {
    const imports = [
      { path: join(root, "client/auth/a.ts"), text: 'import { Client } from "../client.js";' },
      { path: join(root, "client/b.ts"), text: 'import { OAuthClientProvider } from "./auth/provider.js";' },
      {
        path: join(root, "client/auth/c.ts"),
        text: 'import type { HttpClientAuth } from "../../transport/http/client/client-auth.js";',
      },
      { path: join(root, "client/auth/d.ts"), text: 'import { Server } from "../../server/server.js";' },
    ];
    expect(violations(imports)).toEqual([
      "client/auth/a.ts (client/auth) imports ../client.js (client)",
      "client/auth/d.ts (client/auth) imports ../../server/server.js (server)",
    ]);
  });

  it("keeps an extension's halves apart: the shared part on the wire layer, server and client parts on their sides", () => {
    const imports = [
      {
        path: join(root, "extensions/skills/server.ts"),
        text: 'import { x } from "../../server/mcp/server.js";',
      },
      {
        path: join(root, "extensions/skills/client.ts"),
        text: 'import { x } from "../../client/client.js";',
      },
      {
        path: join(root, "extensions/skills/format.ts"),
        text: 'import { x } from "../../client/client.js";',
      },
      { path: join(root, "extensions/skills/client.ts"), text: 'import { x } from "./server.js";' },
      { path: join(root, "extensions/skills/server.ts"), text: 'import { x } from "./client.js";' },
      { path: join(root, "server/mcp/a.ts"), text: 'import { x } from "../../extensions/skills/wire.js";' },
    ];
    expect(violations(imports)).toEqual([
      "extensions/skills/format.ts (extensions/skills) imports ../../client/client.js (client)",
      "extensions/skills/client.ts (extensions/skills/client) imports ./server.js (extensions/skills/server)",
      "extensions/skills/server.ts (extensions/skills/server) imports ./client.js (extensions/skills/client)",
      "server/mcp/a.ts (server/mcp) imports ../../extensions/skills/wire.js (extensions/skills)",
    ]);
  });

  it("keeps state/ on the wire layer, below the transport, server and client", () => {
    const imports = [
      { path: join(root, "state/a.ts"), text: 'import { Clock } from "../protocol/clock.js";' },
      {
        path: join(root, "state/t.ts"),
        text: 'import type { Dispatcher } from "../transport/dispatcher.js";',
      },
      {
        path: join(root, "transport/http/session/s.ts"),
        text: 'import type { SessionStore } from "../../../state/session-store.js";',
      },
      { path: join(root, "state/b.ts"), text: 'import { Server } from "../server/server.js";' },
      { path: join(root, "state/c.ts"), text: 'import { Client } from "../client/client.js";' },
      {
        path: join(root, "server/state/d.ts"),
        text: 'import type { ReplayCache } from "../../state/replay-cache.js";',
      },
      {
        path: join(root, "client/e.ts"),
        text: 'import { MemoryReplayCache } from "../state/memory-replay-cache.js";',
      },
    ];
    expect(violations(imports)).toEqual([
      "state/t.ts (state) imports ../transport/dispatcher.js (transport)",
      "state/b.ts (state) imports ../server/server.js (server)",
      "state/c.ts (state) imports ../client/client.js (client)",
    ]);
  });

  it("catches a wrong-way import", () => {
    const wrong = [
      { path: join(root, "server/x.ts"), text: 'import { Client } from "../client/client.js";' },
      { path: join(root, "protocol/y.ts"), text: 'import type { Server } from "../server/server.js";' },
      { path: join(root, "transport/z.ts"), text: 'export * from "../protocol/index.js";' },
    ];
    expect(violations(wrong)).toHaveLength(2);
  });

  it("sees the package's own entry names, and allows the client's on-demand stdio only as a dynamic import", () => {
    const imports = [
      {
        path: join(root, "client/a.ts"),
        text: 'const { StdioClientTransport } = await import("tsmcp/stdio");',
      },
      { path: join(root, "client/b.ts"), text: 'import { serveStdio } from "tsmcp/stdio";' },
      { path: join(root, "server/c.ts"), text: 'const { Client } = await import("tsmcp/client");' },
      { path: join(root, "transport/d.ts"), text: 'export { Server } from "tsmcp/server";' },
      { path: join(root, "protocol/e.ts"), text: 'await import ( "tsmcp/stdio" );' },
      { path: join(root, "client/f.ts"), text: 'import { McpError } from "tsmcp/types";' },
      { path: join(root, "client/g.ts"), text: 'import { Server } from "tsmcp";' },
    ];
    expect(violations(imports)).toEqual([
      "client/b.ts (client) imports tsmcp/stdio (stdio)",
      "server/c.ts (server) imports tsmcp/client (client)",
      "transport/d.ts (transport) imports tsmcp/server (server/entry)",
      "protocol/e.ts (protocol) imports tsmcp/stdio (stdio)",
      "client/g.ts (client) imports tsmcp (index)",
    ]);
  });

  it("needs the lazy row for the client's stdio import in the sources", () => {
    expect(violations(files, {})).toEqual(["client/connect.ts (client) imports tsmcp/stdio (stdio)"]);
  });

  it("keeps the HTTP transport's sides apart: server and client never import each other", () => {
    const http = join(root, "transport/http");
    const imports = [
      { path: join(http, "client/a.ts"), text: 'import { SseStream } from "../server/sse.js";' },
      {
        path: join(http, "server/b.ts"),
        text: 'import type { HttpClientAnswer } from "../client/http-answer.js";',
      },
      { path: join(http, "server/c.ts"), text: 'import { serve } from "../node/node.js";' },
      { path: join(http, "client/d.ts"), text: 'import { serve } from "../node/node.js";' },
      {
        path: join(http, "node/e.ts"),
        text: 'import { createHttpHandler } from "../server/server-handler.js";',
      },
      { path: join(http, "node/f.ts"), text: 'import { HttpClientTransport } from "../client/client.js";' },
      { path: join(http, "session/g.ts"), text: 'import { failure } from "../client/failures.js";' },
      { path: join(http, "h.ts"), text: 'import { toResponse } from "./server/answer.js";' },
      { path: join(http, "client/i.ts"), text: 'import { MCP_HEADERS } from "../headers.js";' },
      { path: join(http, "server/j.ts"), text: 'import type { HttpServerAnswer } from "../exchange.js";' },
      {
        path: join(root, "server/k.ts"),
        text: 'import { HttpClientTransport } from "../transport/http/client/client.js";',
      },
      { path: join(root, "client/l.ts"), text: 'import { serve } from "../transport/http/node/node.js";' },
    ];
    expect(violations(imports)).toEqual([
      "transport/http/client/a.ts (transport/http/client) imports ../server/sse.js (transport/http/server)",
      "transport/http/server/b.ts (transport/http/server) imports ../client/http-answer.js (transport/http/client)",
      "transport/http/server/c.ts (transport/http/server) imports ../node/node.js (transport/http/node)",
      "transport/http/client/d.ts (transport/http/client) imports ../node/node.js (transport/http/node)",
      "transport/http/node/f.ts (transport/http/node) imports ../client/client.js (transport/http/client)",
      "transport/http/session/g.ts (transport/http/session) imports ../client/failures.js (transport/http/client)",
      "transport/http/h.ts (transport/http) imports ./server/answer.js (transport/http/server)",
      "server/k.ts (server) imports ../transport/http/client/client.js (transport/http/client)",
      "client/l.ts (client) imports ../transport/http/node/node.js (transport/http/node)",
    ]);
  });

  it("catches a wrong-way import between server's sub-layers", () => {
    const wrong = [
      { path: join(root, "server/resolve/a.ts"), text: 'import { tool } from "../mcp/tools.js";' },
      {
        path: join(root, "server/schema/b.ts"),
        text: 'import type { Resolver } from "../resolve/resolver.js";',
      },
      { path: join(root, "server/state/c.ts"), text: 'import { elicit } from "../resolve/elicit.js";' },
      { path: join(root, "server/d.ts"), text: 'import { MCPServer } from "./mcp/server.js";' },
      {
        path: join(root, "server/schema/e.ts"),
        text: 'import type { RequestContext } from "../context.js";',
      },
      { path: join(root, "server/mcp/f.ts"), text: 'import { resolveRound } from "../resolve/round.js";' },
      {
        path: join(root, "server/resolve/g.ts"),
        text: 'import { compileSchema } from "../schema/compile.js";',
      },
      { path: join(root, "server/index.ts"), text: 'export { MCPServer } from "./mcp/server.js";' },
    ];
    expect(violations(wrong)).toEqual([
      "server/resolve/a.ts (server/resolve) imports ../mcp/tools.js (server/mcp)",
      "server/schema/b.ts (server/schema) imports ../resolve/resolver.js (server/resolve)",
      "server/state/c.ts (server/state) imports ../resolve/elicit.js (server/resolve)",
      "server/d.ts (server) imports ./mcp/server.js (server/mcp)",
      "server/schema/e.ts (server/schema) imports ../context.js (server)",
    ]);
  });
});

/** The SDK entries the command may import: the client side, the wire types and the extensions' entries. */
const CLI_MAY_IMPORT = [
  "tsmcp/client",
  "tsmcp/client/auth",
  "tsmcp/types",
  "tsmcp/transport",
  "tsmcp/stdio",
  // The parked-call seam (client side) and its file store, which needs Node.
  "tsmcp/state",
  "tsmcp/node",
  // The extensions' entries hold both halves; the command uses their client halves.
  "tsmcp/skills",
  "tsmcp/apps",
];
/** The SDK entries the Redis state stores may import: the state seams. */
const REDIS_MAY_IMPORT = ["tsmcp/state"];

/**
 * The imports of `files` (under `base`, a package's sources) that leave the package wrongly: a
 * relative path out of it, or an SDK entry other than `mayImport` (the packages' own names, like
 * `tsmcp-redis`, are other packages).
 */
function packageViolations(
  base: string,
  mayImport: readonly string[],
  files: { path: string; text: string }[],
): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      const specifier = match[1] as string;
      const inside = specifier.startsWith(".")
        ? !relative(base, resolve(dirname(path), specifier)).startsWith("..")
        : !/^tsmcp(\/|$)/.test(specifier) || mayImport.includes(specifier);
      if (!inside) found.push(`${relative(base, path)} imports ${specifier}`);
    }
  }
  return found;
}

/** The imports of `files` (under packages/tsmcp-cli/src) that leave the command's package wrongly. */
function cliViolations(files: { path: string; text: string }[]): string[] {
  return packageViolations(cliRoot, CLI_MAY_IMPORT, files);
}

describe("the command's package", () => {
  const files = sourceFiles(cliRoot).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("imports the SDK only through its public client-side entries", () => {
    expect(files.length).toBeGreaterThan(5);
    expect(cliViolations(files)).toEqual([]);
  });

  it("catches a path into the SDK's sources and the server entry", () => {
    const wrong = [
      { path: join(cliRoot, "a.ts"), text: 'import { Client } from "../../tsmcp/src/client/client.js";' },
      { path: join(cliRoot, "b.ts"), text: 'import { MCPServer } from "tsmcp/server";' },
      { path: join(cliRoot, "c.ts"), text: 'import { Client } from "tsmcp/client";' },
      { path: join(cliRoot, "d.ts"), text: 'import { render } from "./render.js";' },
      { path: join(cliRoot, "e.ts"), text: 'const { x } = await import("tsmcp/src/client/index.js");' },
    ];
    expect(cliViolations(wrong)).toEqual([
      "a.ts imports ../../tsmcp/src/client/client.js",
      "b.ts imports tsmcp/server",
      "e.ts imports tsmcp/src/client/index.js",
    ]);
  });
});

describe("the Redis state stores' package", () => {
  const files = sourceFiles(redisRoot).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("imports the SDK only through tsmcp/state", () => {
    expect(files.length).toBeGreaterThan(4);
    expect(packageViolations(redisRoot, REDIS_MAY_IMPORT, files)).toEqual([]);
  });

  it("catches a path into the SDK's sources and any other entry", () => {
    const wrong = [
      {
        path: join(redisRoot, "a.ts"),
        text: 'import { splitEventId } from "../../tsmcp/src/state/event-store.js";',
      },
      { path: join(redisRoot, "b.ts"), text: 'import type { JSONRPCMessage } from "tsmcp/types";' },
      { path: join(redisRoot, "c.ts"), text: 'import { StateUnavailableError } from "tsmcp/state";' },
      { path: join(redisRoot, "d.ts"), text: 'import { createClient } from "redis";' },
      { path: join(redisRoot, "e.ts"), text: 'import { runCommand } from "./client.js";' },
      { path: join(redisRoot, "f.ts"), text: 'export { MCPServer } from "tsmcp/server";' },
    ];
    expect(packageViolations(redisRoot, REDIS_MAY_IMPORT, wrong)).toEqual([
      "a.ts imports ../../tsmcp/src/state/event-store.js",
      "b.ts imports tsmcp/types",
      "f.ts imports tsmcp/server",
    ]);
  });
});

describe("the SDK", () => {
  it("imports neither the command nor the Redis state stores", () => {
    const files = sourceFiles(root).map((path) => ({ path, text: readFileSync(path, "utf8") }));
    const reaching = files.filter(({ text }) =>
      /(?:from|import)\s*\(?\s*["'](?:tsmcp-cli|tsmcp-redis)["'/]|packages\/tsmcp-(?:cli|redis)/.test(text),
    );
    expect(reaching.map(({ path }) => relative(root, path))).toEqual([]);
  });
});

/**
 * The relative imports of each source module (type-only and re-exports included: a circle of
 * types still ties the modules' design together), as an adjacency list over the given files.
 */
function importGraph(files: { path: string; text: string }[]): Map<string, string[]> {
  const known = new Set(files.map((file) => file.path));
  const graph = new Map<string, string[]>();
  for (const { path, text } of files) {
    const targets: string[] = [];
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const target = join(dirname(path), (match[1] as string).replace(/\.js$/, ".ts"));
      if (known.has(target)) targets.push(target);
    }
    graph.set(path, targets);
  }
  return graph;
}

/** Every import circle found by a depth-first search, each as its modules joined by ` > `. */
function importCircles(graph: Map<string, string[]>, base: string): string[] {
  const circles: string[] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (node: string): void => {
    const at = onPath.indexOf(node);
    if (at !== -1) {
      circles.push([...onPath.slice(at), node].map((path) => relative(base, path)).join(" > "));
      return;
    }
    if (done.has(node)) return;
    onPath.push(node);
    for (const next of graph.get(node) ?? []) visit(next);
    onPath.pop();
    done.add(node);
  };
  for (const node of graph.keys()) visit(node);
  return circles;
}

describe("import circles", () => {
  const base = join(repo, "packages");
  const sources = [...sourceFiles(root), ...sourceFiles(cliRoot), ...sourceFiles(redisRoot)].map((path) => ({
    path,
    text: readFileSync(path, "utf8"),
  }));

  it("finds no import circle among the source modules of any package", () => {
    expect(importCircles(importGraph(sources), base)).toEqual([]);
  });

  it("catches a circle, type-only imports and re-exports included", () => {
    const circle = [
      { path: join(root, "x/a.ts"), text: 'import type { B } from "./b.js";' },
      { path: join(root, "x/b.ts"), text: 'export { C } from "./c.js";' },
      { path: join(root, "x/c.ts"), text: 'import { A } from "./a.js";' },
    ];
    expect(importCircles(importGraph(circle), base)).toEqual([
      "tsmcp/src/x/a.ts > tsmcp/src/x/b.ts > tsmcp/src/x/c.ts > tsmcp/src/x/a.ts",
    ]);
  });
});
