/**
 * The tsmcp `Client` against a server built on the official 1.x SDK over stateless Streamable HTTP
 * (in this process, on 127.0.0.1; a fresh server and transport per POST, no session, no GET
 * stream): the probe falls back to `initialize`, and everything that needs no back-channel works.
 * Such a server cannot ask the client anything (the answer would reach another instance), so the
 * elicitation, sampling and roots cases are left out.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { type Asked, clientCases, interopCallbacks, newAsked } from "./client-cases.js";
import { serveV1Http, type V1HttpServer } from "./official-v1-server.js";

let server: V1HttpServer;
let client: Client;
const asked: Asked = newAsked();

beforeAll(async () => {
  server = await serveV1Http("stateless");
  client = await Client.connect(server.url, { ...interopCallbacks(asked), timeoutMs: 10_000 });
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe("the tsmcp Client against the official 1.x server, stateless Streamable HTTP", () => {
  clientCases(() => client, asked, { backChannel: false });
});
