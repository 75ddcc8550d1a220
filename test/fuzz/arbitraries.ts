/**
 * Generators of malformed Streamable HTTP requests for the fuzz properties: JSON-RPC bodies that
 * are broken in every field (bad JSON, wrong types for `jsonrpc`/`id`/`method`/`params`, deep
 * nesting, huge strings, batches, bad `_meta`) and headers that are missing, malformed or disagree
 * with the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, `Content-Type`,
 * `Accept`, `Origin`, `Host`, `Mcp-Session-Id`). Spec: basic/transports/streamable-http.
 */
import fc from "fast-check";

/** One generated HTTP request, transport-neutral. */
export interface FuzzRequest {
  readonly method: "POST" | "GET" | "DELETE" | "PUT";
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** Methods a fuzzed body may name; none opens a long-lived stream. */
const KNOWN_METHODS = [
  "tools/call",
  "tools/list",
  "prompts/get",
  "prompts/list",
  "resources/read",
  "resources/list",
  "server/discover",
  "initialize",
  "ping",
  "notifications/initialized",
  "notifications/cancelled",
  "completion/complete",
];

/** The tools, prompts and resources the fuzzed server has, and names it does not. */
const NAMES = ["echo", "pattern", "confirm", "provision", "nope", "", "a".repeat(300)];

/** Printable ASCII, the values a header can carry without the HTTP stack refusing to send them. */
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map(String.fromCharCode),
  maxLength: 40,
});

const HUGE = 200_000;

/** Any JSON value, now and then a huge string or a deeply nested one. */
const wildValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant("x".repeat(HUGE)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map(nested) },
  { weight: 1, arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1e308, 0.5) },
);

/** An array nested `depth` levels deep around `1`. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const validMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "1.0.0" },
};

/** A `_meta` that is valid, missing a field, holding wrong types, or not an object at all. */
const meta: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(validMeta) },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        "io.modelcontextprotocol/protocolVersion": fc.oneof(
          fc.constantFrom("2026-07-28", "2025-11-25", "1999-01-01", ""),
          wildValue,
        ),
        "io.modelcontextprotocol/clientCapabilities": fc.oneof(fc.constant({}), wildValue),
        "io.modelcontextprotocol/clientInfo": fc.oneof(
          fc.constant({ name: "fuzz", version: "1" }),
          wildValue,
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: wildValue },
);

/** `params`: a plausible object for the method (arguments, answers, state), or anything else. */
const params: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        name: fc.oneof(fc.constantFrom(...NAMES), wildValue),
        uri: fc.oneof(fc.constantFrom("notes://1", "file:///etc/passwd", ""), wildValue),
        arguments: fc.oneof(
          fc.record({ text: fc.oneof(fc.string(), wildValue) }, { requiredKeys: [] }),
          fc.record({ name: fc.oneof(fc.string(), wildValue) }, { requiredKeys: [] }),
          wildValue,
        ),
        inputResponses: fc.oneof(
          fc.constant({ region: { action: "accept", content: { region: "eu" } } }),
          fc.constant({ ok: { action: "accept", content: { ok: true } } }),
          fc.dictionary(fc.string({ maxLength: 5 }), wildValue, { maxKeys: 3 }),
          wildValue,
        ),
        requestState: fc.oneof(fc.string({ maxLength: 60 }), wildValue),
        protocolVersion: fc.oneof(fc.constantFrom("2025-11-25", "2026-07-28"), wildValue),
        capabilities: fc.oneof(fc.constant({}), wildValue),
        clientInfo: fc.oneof(fc.constant({ name: "fuzz", version: "1" }), wildValue),
        cursor: wildValue,
        _meta: meta,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: wildValue },
);

/** A JSON-RPC message, each member valid, wrong-typed or missing. */
const message: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    jsonrpc: fc.oneof(
      { weight: 5, arbitrary: fc.constant("2.0") },
      fc.constantFrom("1.0", 2, null),
      wildValue,
    ),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), wildValue),
    method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...KNOWN_METHODS) }, fc.string(), wildValue),
    params,
    result: wildValue,
    error: wildValue,
  },
  { requiredKeys: [] },
);

/** Plausible `arguments`: what each tool takes, a little off, or anything. */
const plausibleArguments: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ text: fc.oneof(fc.string(), fc.constantFrom("aaaa", `${"a".repeat(32)}!`), wildValue) }),
  fc.record({ name: fc.oneof(fc.string(), wildValue) }),
  fc.record({ topic: fc.oneof(fc.string(), wildValue) }),
  wildValue,
);

/**
 * A request that gets past the envelope checks: `jsonrpc` "2.0", an integer id, a known method, a
 * valid `_meta`, a known name, plausible arguments and answers, so that the handlers themselves
 * meet malformed input.
 */
const plausibleMessage: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    id: fc.nat(),
    method: fc.constantFrom(...KNOWN_METHODS),
    name: fc.constantFrom(...NAMES),
    uri: fc.constantFrom("notes://1", "notes://", "file:///etc/passwd"),
    arguments: plausibleArguments,
    extra: fc.record(
      {
        inputResponses: fc.oneof(
          fc.constant({ region: { action: "accept", content: { region: "eu" } } }),
          fc.constant({ ok: { action: "accept", content: { ok: true } } }),
          fc.constant({ ok: { action: "decline" } }),
          fc.dictionary(fc.string({ maxLength: 5 }), wildValue, { maxKeys: 3 }),
        ),
        requestState: fc.oneof(fc.constant("confirm-v1"), fc.string({ maxLength: 60 })),
        cursor: fc.oneof(fc.string({ maxLength: 20 }), wildValue),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ id, method, name, uri, arguments: args, extra }) => ({
    jsonrpc: "2.0",
    id,
    method,
    params: { name, uri, arguments: args, ...extra, _meta: validMeta },
  }));

/** Body text: a message, a batch, any JSON, or text that is not JSON. */
export const fuzzBody: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: plausibleMessage.map((m) => JSON.stringify(m)) },
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.array(message, { maxLength: 4 }).map((batch) => JSON.stringify(batch)) },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value) ?? "null") },
  { weight: 1, arbitrary: fc.string() },
  {
    weight: 1,
    arbitrary: message.map((m) => {
      const text = JSON.stringify(m);
      return text.slice(0, Math.max(0, text.length - 3));
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom("", "{", "[]", "null", '{"jsonrpc":"2.0"', "\u0000", "[[[[[[[[") },
);

/**
 * Longest body value mirrored into a header: Node's HTTP parser refuses a request whose headers
 * pass 16 KiB with its own bare 431, before any handler runs.
 */
const MAX_MIRRORED_HEADER = 200;

/** The method a body names, when it is a string (to make headers agree with it now and then). */
function methodOf(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { method?: unknown };
    return typeof parsed?.method === "string" ? parsed.method.slice(0, MAX_MIRRORED_HEADER) : undefined;
  } catch {
    return undefined;
  }
}

/** The name or uri a body's params carry, when a string (what `Mcp-Name` mirrors). */
function nameOf(text: string): string | undefined {
  try {
    const params = (JSON.parse(text) as { params?: { name?: unknown; uri?: unknown } })?.params;
    const name = params?.name ?? params?.uri;
    return typeof name === "string" ? name.slice(0, MAX_MIRRORED_HEADER) : undefined;
  } catch {
    return undefined;
  }
}

/** A header's replacement: absent, another plausible value, or arbitrary printable text. */
function mutation(...plausible: string[]): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.constantFrom(...plausible) },
    { weight: 2, arbitrary: headerValue },
  );
}

/**
 * Headers for `text`: the ones a conforming client sends for it (each matching the body), then
 * up to three of them (or an `Origin`, `Mcp-Param-*` or `Mcp-Session-Id`) removed, replaced by
 * another plausible value, or replaced by garbage.
 */
function headersFor(text: string, host: string): fc.Arbitrary<Record<string, string>> {
  const method = methodOf(text);
  const name = nameOf(text);
  const conforming: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    "mcp-name": name,
    host,
  };
  const mutations: Record<string, fc.Arbitrary<string | undefined>> = {
    "content-type": mutation("text/plain", "application/json; charset=utf-8", "application/xml"),
    accept: mutation("application/json", "text/event-stream", "*/*", "text/html"),
    "mcp-protocol-version": mutation("2025-11-25", "2025-06-18", "1999-01-01"),
    "mcp-method": mutation("tools/call", "tools/list", "resources/read"),
    "mcp-name": mutation(...NAMES.slice(0, 5), "notes://1"),
    "mcp-param-region": mutation("eu", "=?base64?ZXU=?=", "=?base64?!!!?="),
    "mcp-session-id": mutation("00000000-0000-4000-8000-000000000000", "x"),
    origin: mutation(`http://${host}`, "https://evil.example", "null"),
    host: mutation(host, "evil.example", "127.0.0.1:99999", "[::1", ""),
  };
  const changes = fc.array(
    fc
      .constantFrom(...Object.keys(mutations))
      .chain((key) =>
        (mutations[key] as fc.Arbitrary<string | undefined>).map((value) => [key, value] as const),
      ),
    { maxLength: 3 },
  );
  return changes.map((list) => {
    const headers = { ...conforming };
    for (const [key, value] of list) headers[key] = value;
    return Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
  });
}

/** A malformed request for a server reachable at `host` (e.g. `127.0.0.1:54321`). */
export function fuzzRequest(host: string): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.oneof(
        { weight: 12, arbitrary: fc.constant("POST" as const) },
        fc.constantFrom("GET" as const, "DELETE" as const, "PUT" as const),
      ),
      fuzzBody,
    )
    .chain(([method, text]) =>
      headersFor(text, host).map(
        (headers): FuzzRequest => ({
          method,
          headers,
          body: method === "POST" || method === "PUT" ? text : undefined,
        }),
      ),
    );
}
