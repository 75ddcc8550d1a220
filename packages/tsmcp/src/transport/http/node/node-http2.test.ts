/**
 * `createNodeListener` on `node:http2`'s compatibility API (cleartext): the authority is read from
 * `:authority` (HTTP/2 has no `Host` header), and no `Connection` header is written (HTTP/2 has
 * none; node warns and drops it).
 */
import { once } from "node:events";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Server } from "../../../server/server.js";
import { baseHeaders, rpc } from "../http-test-fixtures.js";
import type { HttpHandlerOptions } from "../server/server-handler.js";
import { createNodeListener } from "./node-listener.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

interface H2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

let stop: (() => Promise<void>) | undefined;
const warnings: Error[] = [];
/** The server side of each request's stream. */
const streams: http2.ServerHttp2Stream[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
beforeEach(() => {
  warnings.length = 0;
  streams.length = 0;
  process.on("warning", onWarning);
});
afterEach(async () => {
  process.off("warning", onWarning);
  await stop?.();
  stop = undefined;
});

/** Serves `options` on a cleartext HTTP/2 server and returns a session connected to `authority`. */
async function connect(options: HttpHandlerOptions, authority = "localhost") {
  const listener = createNodeListener(
    new Server("h2", { logger: silent, onListTools: () => ({ tools: [] }) }),
    options,
  );
  const server = http2.createServer((req, res) => {
    streams.push(req.stream);
    (listener as unknown as (req: unknown, res: unknown) => void)(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const client = http2.connect(`http://127.0.0.1:${port}`);
  stop = async () => {
    // Not close(): node's client keeps a stream whose upload the server stopped until destroyed.
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return (headers: Record<string, string>, body: string): Promise<H2Answer> =>
    new Promise((resolve, reject) => {
      const request = client.request({
        ":method": "POST",
        ":path": "/mcp",
        ":authority": `${authority}:${port}`,
        ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
      });
      let status = 0;
      let answerHeaders: http2.IncomingHttpHeaders = {};
      let text = "";
      request.on("response", (received) => {
        answerHeaders = received;
        status = Number(received[":status"]);
      });
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => {
        text += chunk;
      });
      request.on("end", () => resolve({ status, headers: answerHeaders, body: text }));
      request.on("error", reject);
      request.end(body);
    });
}

describe("createNodeListener on node:http2's compatibility API", () => {
  it("serves a request whose authority is in :authority", async () => {
    const send = await connect({});
    const answer = await send(baseHeaders("tools/list"), JSON.stringify(rpc(1, "tools/list")));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 1, result: { tools: [] } });
    expect(warnings).toEqual([]);
  });

  it("shows authenticate the authority as host, and no pseudo-headers", async () => {
    const seen: { names: string[]; host: string | null; url: string }[] = [];
    const send = await connect({
      authenticate: (request) => {
        const names: string[] = [];
        request.headers.forEach((_value, name) => {
          names.push(name);
        });
        seen.push({ names, host: request.headers.get("host"), url: request.url });
        return undefined;
      },
    });
    const answer = await send(baseHeaders("tools/list"), JSON.stringify(rpc(1, "tools/list")));
    expect(answer.status).toBe(200);
    const [{ names, host, url }] = seen as [(typeof seen)[0]];
    expect(names.filter((name) => name.startsWith(":"))).toEqual([]);
    expect(names.filter((name) => name === "host")).toEqual(["host"]);
    expect(host).toMatch(/^localhost:\d+$/);
    expect(url).toBe(`http://${host}/mcp`);
  });

  it("checks the :authority against allowedHosts", async () => {
    const send = await connect({}, "evil.example");
    const answer = await send(baseHeaders("tools/list"), JSON.stringify(rpc(1, "tools/list")));
    expect(answer.status).toBe(403);
  });

  it("refuses a body over maxBodyBytes with 413 and no Connection header", async () => {
    const send = await connect({ maxBodyBytes: 64 });
    const body = JSON.stringify(rpc(1, "tools/list", { padding: "x".repeat(100_000) }));
    const answer = await send(baseHeaders("tools/list"), body);
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBeUndefined();
    expect(warnings).toEqual([]);
    // The unread upload is stopped: the stream is reset with NO_ERROR (RFC 9113 §8.1), not held open.
    const stream = streams[0] as http2.ServerHttp2Stream;
    if (!stream.destroyed) await once(stream, "close");
    expect(stream.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);
  });
});
