/**
 * The names tsmcp records spans and metrics under: OpenTelemetry's semantic conventions for MCP
 * (`mcp.*`, `jsonrpc.*`, `gen_ai.*`, `rpc.*`, `error.type`, `network.transport`), and tsmcp's own
 * under `tsmcp.*` for what the conventions do not cover (the era, multi round-trip rounds, the
 * result type). Never a secret, an answer's value or a `requestState` in any of them.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */

/** Attribute keys of the MCP semantic conventions that tsmcp records. */
export const SEMCONV = Object.freeze({
  /** The request or notification method, e.g. `tools/call`. */
  methodName: "mcp.method.name",
  /** The MCP revision of the request, e.g. `2026-07-28`. */
  protocolVersion: "mcp.protocol.version",
  /** A 2025-era session's id (`Mcp-Session-Id`), when the request belongs to one. */
  sessionId: "mcp.session.id",
  /** The resource a `resources/*` request names. */
  resourceUri: "mcp.resource.uri",
  /** The JSON-RPC id of a request, as a string. */
  requestId: "jsonrpc.request.id",
  /** The JSON-RPC error code of an error response, as a string (`"-32602"`). */
  statusCode: "rpc.response.status_code",
  /** The error class: the JSON-RPC code as a string, `tool_error` for `isError`, or an exception's name. */
  errorType: "error.type",
  /** The tool a `tools/call` names. */
  toolName: "gen_ai.tool.name",
  /** The prompt a `prompts/get` names. */
  promptName: "gen_ai.prompt.name",
  /** `execute_tool` on a `tools/call`. */
  operationName: "gen_ai.operation.name",
  /** `pipe` over stdio, `tcp` over HTTP. */
  networkTransport: "network.transport",
  /** The host of the server a client sends to over HTTP. */
  serverAddress: "server.address",
  /** The port of the server a client sends to over HTTP. */
  serverPort: "server.port",
} as const);

/** tsmcp's own attribute keys, for what the conventions do not name. */
export const TSMCP_ATTRIBUTES = Object.freeze({
  /** `stateless` (the 2026-07-28 wire) or `handshake` (a 2025-era session). */
  era: "tsmcp.era",
  /** What the request answered: `complete`, `input_required` or `task`. */
  resultType: "tsmcp.result_type",
  /** The multi round-trip round this request (or leg) is, 1 for the first. */
  round: "tsmcp.mrtr.round",
  /** The keys of the `inputResponses` a leg carries (never their values), as a string array. */
  inputKeys: "tsmcp.mrtr.input_keys",
  /** The keys of the `inputRequests` a result asks (never their contents), as a string array. */
  requestedKeys: "tsmcp.mrtr.requested_keys",
} as const);

/** Metric names: the conventions' durations (seconds) and tsmcp's rounds per multi round-trip call. */
export const METRICS = Object.freeze({
  serverOperationDuration: "mcp.server.operation.duration",
  clientOperationDuration: "mcp.client.operation.duration",
  serverSessionDuration: "mcp.server.session.duration",
  clientSessionDuration: "mcp.client.session.duration",
  /** Rounds a multi round-trip call took until it completed (1 for a call that asked nothing). */
  mrtrRounds: "tsmcp.mrtr.rounds",
} as const);

/**
 * The bucket boundaries the conventions advise for the duration histograms, in seconds.
 */
export const DURATION_BUCKETS_S: readonly number[] = Object.freeze([
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
]);

/** The `_meta` keys W3C Trace Context and Baggage travel under (SEP-414), unprefixed. */
export const TRACE_META_KEYS: readonly string[] = Object.freeze(["traceparent", "tracestate", "baggage"]);

/** The instrumentation scope tsmcp records under (tracer and meter name). */
export const INSTRUMENTATION_SCOPE = "tsmcp";
