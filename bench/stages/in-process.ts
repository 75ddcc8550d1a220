/**
 * Scope item 3: in-process cost of one request, no sockets, for a plain call (with 1 and 50
 * registered tools), an MRTR first leg and an MRTR retry leg. Two levels:
 *
 * - dispatch: a parsed message in, a response out. tsmcp: `server.handle(message, env)`. The
 *   official SDK has no dispatcher that outlives a request; its nearest equivalent is its entry
 *   `fetch(request, { parsedBody })` (body already parsed; it still builds a server per request),
 *   read to text. The floor: its answer function on the parsed message. tsmcp's and the floor's
 *   responses are `JSON.stringify`d so all three end with the response text.
 * - web handler: a web `Request` built from the raw bytes in, the response text out, for all three
 *   (tsmcp: `createHttpHandler`; official: `createMcpHandler().fetch` behind the Host check;
 *   floor: `JSON.parse` + answer + `JSON.stringify`).
 *
 * Every operation is timed on its own (microseconds); each message is checked once first. The
 * plain call on the 1-tool and the 50-tool server is timed in alternating blocks, so the two are
 * compared under the same machine load.
 */
import type { JSONRPCResponse } from "../../packages/tsmcp/src/protocol/jsonrpc.js";
import type { Dispatcher, RequestEnvironment } from "../../packages/tsmcp/src/transport/dispatcher.js";
import { createHttpHandler } from "../../packages/tsmcp/src/transport/http/server/server-handler.js";
import { ECHO_TOOL, PROVISIONED_TEXT, type ServerSpec } from "../fixtures/tools.js";
import {
  plainCall,
  provisionFirstLeg,
  provisionRetryLeg,
  type ToolCallMessage,
  toolCallHeaders,
} from "../fixtures/wire.js";
import type { Column } from "../lib/report.js";
import { type SampleBounds, type Summary, sample, sampleInterleaved } from "../lib/stats.js";
import { floorAnswer, floorResult } from "../servers/floor.js";
import { createOfficialFetch } from "../servers/official.js";
import { createTsmcpServer } from "../servers/tsmcp.js";

/** The requests measured. */
export type Leg = "plain, 1 tool" | "plain, 50 tools" | "MRTR first leg" | "MRTR retry leg";

/** The two levels measured. */
export type Level = "dispatch" | "web handler";

/** Microseconds per request by level, leg, implementation. */
export type InProcessResults = Map<Level, Map<Leg, Map<Column, Summary>>>;

const URL_OF_ENDPOINT = "http://127.0.0.1:3000/mcp";

/** One implementation at both levels, for one server spec. */
interface Subject {
  dispatch(message: ToolCallMessage): Promise<string>;
  web(message: ToolCallMessage): Promise<string>;
}

function request(message: ToolCallMessage): Request {
  return new Request(URL_OF_ENDPOINT, {
    method: "POST",
    headers: { ...toolCallHeaders(message.params.name), host: "127.0.0.1:3000" },
    body: JSON.stringify(message),
  });
}

const env: RequestEnvironment = { signal: new AbortController().signal };

function tsmcpSubject(spec: ServerSpec): Subject {
  const server: Dispatcher = createTsmcpServer(spec);
  const handler = createHttpHandler(server);
  return {
    dispatch: async (message) => JSON.stringify((await server.handle(message, env)) as JSONRPCResponse),
    web: async (message) => (await handler(request(message))).text(),
  };
}

function officialSubject(spec: ServerSpec): Subject {
  const officialFetch = createOfficialFetch(spec);
  return {
    dispatch: async (message) => (await officialFetch(request(message), { parsedBody: message })).text(),
    web: async (message) => (await officialFetch(request(message))).text(),
  };
}

function floorSubject(): Subject {
  return {
    dispatch: async (message) =>
      JSON.stringify({ jsonrpc: "2.0", id: message.id, result: floorResult(message) }),
    web: async (message) => {
      const answer = floorAnswer(await request(message).text());
      return new Response(answer, { headers: { "content-type": "application/json" } }).text();
    },
  };
}

function subjects(spec: ServerSpec): Map<Column, Subject> {
  return new Map<Column, Subject>([
    ["tsmcp", tsmcpSubject(spec)],
    ["official", officialSubject(spec)],
    ["floor", floorSubject()],
  ]);
}

/** The `requestState` of a first-leg answer (text of a JSON-RPC response). */
function requestStateOf(answer: string): string | undefined {
  const parsed = JSON.parse(answer) as { result?: { resultType?: string; requestState?: string } };
  if (parsed.result?.resultType !== "input_required")
    throw new Error(`first leg answered ${answer.slice(0, 300)}`);
  return parsed.result.requestState;
}

function expect(answer: string, fragment: string, what: string): void {
  if (!answer.includes(fragment)) throw new Error(`${what} answered ${answer.slice(0, 300)}`);
}

async function measureSubject(
  name: Column,
  subject: Subject,
  legs: readonly [Leg, ToolCallMessage][],
  bounds: SampleBounds,
  results: InProcessResults,
): Promise<void> {
  for (const level of ["dispatch", "web handler"] as const) {
    const run = level === "dispatch" ? subject.dispatch : subject.web;
    for (const [leg, message] of legs) {
      const original = JSON.stringify(message);
      const summary = await sample(() => run(message), bounds);
      if (JSON.stringify(message) !== original)
        throw new Error(`${name} ${level} changed the message it was given`);
      record(results, level, leg, name, summary);
    }
  }
}

function record(results: InProcessResults, level: Level, leg: Leg, name: Column, summary: Summary): void {
  const byLeg = results.get(level) ?? new Map<Leg, Map<Column, Summary>>();
  const byColumn = byLeg.get(leg) ?? new Map<Column, Summary>();
  byColumn.set(name, summary);
  byLeg.set(leg, byColumn);
  results.set(level, byLeg);
}

/** Runs scope item 3. */
export async function measureInProcess(
  bounds: SampleBounds,
  log: (line: string) => void,
): Promise<InProcessResults> {
  const results: InProcessResults = new Map();
  const one = subjects({ plainTools: 1, mrtr: true });
  const fifty = subjects({ plainTools: 50, mrtr: false });
  for (const [name, subject] of one) {
    const plain = plainCall(ECHO_TOOL);
    expect(await subject.dispatch(plain), '"text":"hello"', `${name} plain call`);
    const first = provisionFirstLeg();
    const retry = provisionRetryLeg(requestStateOf(await subject.dispatch(first)));
    expect(await subject.dispatch(retry), PROVISIONED_TEXT, `${name} retry leg`);
    expect(await subject.web(retry), PROVISIONED_TEXT, `${name} retry leg (web)`);
    await measureSubject(
      name,
      subject,
      [
        ["MRTR first leg", first],
        ["MRTR retry leg", retry],
      ],
      bounds,
      results,
    );
    const many = fifty.get(name) as Subject;
    expect(await many.web(plain), '"text":"hello"', `${name} plain call, 50 tools`);
    for (const level of ["dispatch", "web handler"] as const) {
      const run = (of: Subject) => (level === "dispatch" ? of.dispatch : of.web);
      const [oneTool, fiftyTools] = await sampleInterleaved(
        [() => run(subject)(plain), () => run(many)(plain)],
        bounds,
      );
      record(results, level, "plain, 1 tool", name, oneTool as Summary);
      record(results, level, "plain, 50 tools", name, fiftyTools as Summary);
    }
    log(`  ${name} done`);
  }
  return results;
}
