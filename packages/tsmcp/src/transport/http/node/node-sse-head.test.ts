/**
 * How the Node.js adapter starts an SSE answer: its headers leave in one write with the events the
 * stream already holds (an answer's priming event, with the id a client resumes from), so a
 * process that dies right after answering has sent both or neither, never headers alone (which a
 * proxy passes on and cannot retry elsewhere, and after which the client has no place to resume
 * from); a stream holding nothing yet still gets its headers at once.
 */
import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { formatPrimingEvent, SseStream } from "../server/sse.js";
import { writeNodeAnswer } from "./node-listener.js";

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** Serves every request with `answer`; resolves with the port. */
async function serveWith(answer: (response: ServerResponse) => void): Promise<number> {
  server = createServer((_request, response) => answer(response));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as { port: number }).port;
}

/** Sends a GET on a raw connection; resolves with what arrived once `done` accepts it or the connection ends. */
function receive(port: number, done: (text: string) => boolean = () => false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (done(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
    socket.write("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  });
}

const streamOptions = { keepAliveMs: 0, maxBufferedBytes: 1 << 20, onCancel: () => {} };

describe("an SSE answer of the Node.js adapter", () => {
  it("sends its headers only together with the priming event it holds, even when the process dies right after answering", async () => {
    const port = await serveWith((response) => {
      const stream = new SseStream(streamOptions);
      stream.sendRaw(formatPrimingEvent("e-1", 1000));
      writeNodeAnswer({ kind: "sse", stream }, response);
      // The process dies here: nothing more leaves than what was written so far.
      response.socket?.destroy();
    });
    const received = await receive(port);
    if (received !== "") expect(received).toContain("id: e-1");
    expect(received.startsWith("HTTP/1.1 200") || received === "").toBe(true);
  });

  it("sends its headers at once when the stream holds no event yet", async () => {
    const port = await serveWith((response) => {
      writeNodeAnswer({ kind: "sse", stream: new SseStream(streamOptions) }, response);
    });
    const received = await receive(port, (text) => text.includes("\r\n\r\n"));
    expect(received).toMatch(/^HTTP\/1\.1 200[\s\S]*content-type: text\/event-stream/i);
  });
});
