import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { answerClientError } from "./node-client-error.js";

/** A connected TCP pair on 127.0.0.1: the server's end and a client that never reads nor closes. */
async function pair(): Promise<{ server: Socket; client: Socket }> {
  const listener = createServer();
  listener.listen(0, "127.0.0.1");
  await once(listener, "listening");
  const accepted = once(listener, "connection") as Promise<[Socket]>;
  const client = connect((listener.address() as AddressInfo).port, "127.0.0.1");
  client.pause();
  client.on("error", () => {});
  const [server] = await accepted;
  onTestFinished(() => {
    client.destroy();
    server.destroy();
    listener.close();
  });
  return { server, client };
}

describe("answerClientError", () => {
  it("frees the connection after its answer even when the client never reads nor closes", async () => {
    const { server } = await pair();
    const closed = once(server, "close");
    const error = Object.assign(new Error("Request timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" });
    answerClientError(error, server);
    await closed;
    expect(server.destroyed).toBe(true);
    expect(server.bytesWritten).toBeGreaterThan(0);
  }, 2_000);

  it("only closes a connection that already carried a response", async () => {
    const { server } = await pair();
    server.write("HTTP/1.1 200 OK\r\n");
    const closed = once(server, "close");
    const before = server.bytesWritten;
    answerClientError(Object.assign(new Error("Parse Error"), { code: "HPE_INVALID_METHOD" }), server);
    await closed;
    expect(server.bytesWritten).toBe(before);
  }, 2_000);
});
