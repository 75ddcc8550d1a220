/**
 * `MCPServer` seals `requestState` by default: handlers write and read plaintext, the wire only
 * carries opaque tokens, and anything else echoed back is refused with the one frozen error.
 * Over real Streamable HTTP. Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow).
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { JSONRPCResultResponse } from "../../protocol/jsonrpc.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import { RequestStateSecurity } from "../state/policy.js";
import type { Context } from "./context.js";
import { overHttp, postRaw, type RecordingLogger, recordingLogger } from "./mcp-test-fixtures.js";
import { MCPServer, type MCPServerOptions } from "./server.js";

const FROZEN = {
  code: -32602,
  message: "Invalid or expired requestState",
  data: { reason: "invalid_request_state" },
};
const SECRET_STATE = "plaintext-state:account=ACME-7731";
const ARGUMENT_VALUE = "customer-db-zx81";
const ASK = elicitationRequest({
  message: "Region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
});

/** The capabilities of a client that answers forms, as the `provision` tool asks one. */
const ASKS_FORMS = { elicitation: { form: {} } };

/** A server whose `provision` tool asks once, minting SECRET_STATE, and records what its context saw. */
function provisioning(options: MCPServerOptions = {}, name = "fleet") {
  const seen: Pick<Context, "inputResponses" | "requestState">[] = [];
  const logger = recordingLogger();
  const mcp = new MCPServer(name, { logger, ...options });
  mcp.tool("provision", { inputSchema: z.object({ name: z.string() }) }, ({ name }, ctx) => {
    seen.push({ inputResponses: ctx.inputResponses, requestState: ctx.requestState });
    if (ctx.requestState !== SECRET_STATE) {
      return inputRequired({ inputRequests: { region: ASK }, requestState: SECRET_STATE });
    }
    return `Provisioned ${name}`;
  });
  mcp.tool("other", { inputSchema: z.object({ name: z.string() }) }, () => "other");
  return { mcp, seen, logger };
}

function warnings(logger: RecordingLogger): string[] {
  return logger.records.filter((record) => record.level === "warn").map((record) => record.message);
}

async function firstToken(
  url: URL,
  args: Record<string, unknown> = { name: ARGUMENT_VALUE },
): Promise<string> {
  const response = await postRaw(url, "tools/call", { name: "provision", arguments: args }, ASKS_FORMS);
  const result = (response as JSONRPCResultResponse).result;
  expect(result.resultType).toBe("input_required");
  return result.requestState as string;
}

function retry(
  url: URL,
  requestState: unknown,
  name = "provision",
  args: Record<string, unknown> = { name: ARGUMENT_VALUE },
) {
  return postRaw(
    url,
    "tools/call",
    {
      name,
      arguments: args,
      inputResponses: { region: { action: "accept", content: { region: "eu" } } },
      requestState,
    },
    ASKS_FORMS,
  );
}

describe("the requestState a client sees", () => {
  it("is an opaque token: neither the plaintext nor any argument value is inside it", async () => {
    const { mcp } = provisioning();
    const { url } = await overHttp(mcp);
    const token = await firstToken(url);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    const bytes = Buffer.from(token.slice(3), "base64url");
    for (const secret of [SECRET_STATE, "ACME-7731", ARGUMENT_VALUE, "provision", "fleet"]) {
      expect(token).not.toContain(secret);
      expect(bytes.includes(Buffer.from(secret, "utf8"))).toBe(false);
      expect(token).not.toContain(Buffer.from(secret).toString("base64url").slice(0, 12));
    }
    expect(await firstToken(url)).not.toBe(token);
  });

  it("opens back into the plaintext for the handler on the retry", async () => {
    const { mcp, seen } = provisioning();
    const { url } = await overHttp(mcp);
    const response = await retry(url, await firstToken(url));
    expect((response as JSONRPCResultResponse).result.content).toEqual([
      { type: "text", text: `Provisioned ${ARGUMENT_VALUE}` },
    ]);
    expect(seen).toEqual([
      { inputResponses: undefined, requestState: undefined },
      {
        inputResponses: { region: { action: "accept", content: { region: "eu" } } },
        requestState: SECRET_STATE,
      },
    ]);
  });
});

describe("a requestState the server did not mint", () => {
  it("is refused with exactly the frozen error when the client echoes the plaintext", async () => {
    const { mcp, seen, logger } = provisioning();
    const { url } = await overHttp(mcp);
    expect(await retry(url, SECRET_STATE)).toEqual({ jsonrpc: "2.0", id: 1, error: FROZEN });
    expect(seen).toEqual([]);
    expect(warnings(logger)).toEqual([
      expect.stringContaining("process-local key"),
      "requestState rejected on tools/call: malformed",
    ]);
  });

  it("is refused with exactly the frozen error when the token is altered anywhere", async () => {
    const { mcp } = provisioning();
    const { url } = await overHttp(mcp);
    const token = await firstToken(url);
    for (const index of [3, 10, Math.floor(token.length / 2), token.length - 1]) {
      const flipped = token[index] === "A" ? "B" : "A";
      const altered = `${token.slice(0, index)}${flipped}${token.slice(index + 1)}`;
      expect(await retry(url, altered)).toEqual({ jsonrpc: "2.0", id: 1, error: FROZEN });
    }
    expect(await retry(url, `${token}x`)).toEqual({ jsonrpc: "2.0", id: 1, error: FROZEN });
    expect(await retry(url, 42)).toEqual({ jsonrpc: "2.0", id: 1, error: FROZEN });
  });

  it("is refused on another tool, or with other arguments, than the call it was minted for", async () => {
    const { mcp } = provisioning();
    const { url } = await overHttp(mcp);
    const token = await firstToken(url);
    expect(await retry(url, token, "other")).toEqual({ jsonrpc: "2.0", id: 1, error: FROZEN });
    expect(await retry(url, token, "provision", { name: "someone-else" })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: FROZEN,
    });
    expect((await retry(url, token)) as JSONRPCResultResponse).toHaveProperty("result");
  });

  it("is refused by another server with its own default key, even with the same name", async () => {
    const a = provisioning();
    const b = provisioning();
    const { url: urlA } = await overHttp(a.mcp);
    const { url: urlB } = await overHttp(b.mcp);
    expect(await retry(urlB, await firstToken(urlA))).toEqual({ jsonrpc: "2.0", id: 1, error: FROZEN });
    expect(warnings(b.logger)).toEqual([
      expect.stringContaining("process-local key"),
      "requestState rejected on tools/call: unknown key",
    ]);
  });
});

describe("a shared requestStateSecurity", () => {
  it("lets instances with the same keys and name finish each other's rounds, and no other name", async () => {
    const keys = [randomBytes(32)];
    const one = provisioning({
      requestStateSecurity: new RequestStateSecurity({ keys }),
    });
    const two = provisioning({
      requestStateSecurity: new RequestStateSecurity({ keys }),
    });
    const renamed = provisioning({ requestStateSecurity: new RequestStateSecurity({ keys }) }, "billing");
    const { url: urlOne } = await overHttp(one.mcp);
    const { url: urlTwo } = await overHttp(two.mcp);
    const { url: urlRenamed } = await overHttp(renamed.mcp);
    const token = await firstToken(urlOne);
    expect(await retry(urlTwo, token)).toHaveProperty("result.content", [
      { type: "text", text: `Provisioned ${ARGUMENT_VALUE}` },
    ]);
    expect(await retry(urlRenamed, token)).toEqual({ jsonrpc: "2.0", id: 1, error: FROZEN });
  });

  it("needs an audience on a server without a name, and says how to give one", () => {
    const keys = [randomBytes(32)];
    for (const name of ["", "  "]) {
      expect(() => new MCPServer(name, { requestStateSecurity: new RequestStateSecurity({ keys }) })).toThrow(
        TypeError,
      );
      expect(() => new MCPServer(name, { requestStateSecurity: new RequestStateSecurity({ keys }) })).toThrow(
        /Name the server .* or set the policy's audience/,
      );
    }
    expect(
      () =>
        new MCPServer("", { requestStateSecurity: new RequestStateSecurity({ keys, audience: "billing" }) }),
    ).not.toThrow();
    expect(() => new MCPServer("")).not.toThrow();
  });

  it("uses the policy's audience over the server's name", async () => {
    const keys = [randomBytes(32)];
    const policy = () => new RequestStateSecurity({ keys, audience: "shared-fleet" });
    const a = provisioning({ requestStateSecurity: policy() }, "worker-a");
    const b = provisioning({ requestStateSecurity: policy() }, "worker-b");
    const { url: urlA } = await overHttp(a.mcp);
    const { url: urlB } = await overHttp(b.mcp);
    expect(await retry(urlB, await firstToken(urlA))).toHaveProperty("result");
  });
});

describe("the requestState boundary", () => {
  it("runs before every middleware added with use(), which sees plaintext both ways", async () => {
    const { mcp } = provisioning();
    const inbound: unknown[] = [];
    const outbound: unknown[] = [];
    mcp.use(async (request, next) => {
      if (request.method !== "tools/call") return next(request);
      inbound.push(request.params.requestState);
      const result = await next(request);
      outbound.push(result.requestState);
      return result;
    });
    const { url } = await overHttp(mcp);
    const token = await firstToken(url);
    await retry(url, token);
    expect(inbound).toEqual([undefined, SECRET_STATE]);
    expect(outbound).toEqual([SECRET_STATE, undefined]);
  });

  it("drives a hand-built tool through the client's loop, sealed, with no plaintext on the wire", async () => {
    const { mcp } = provisioning();
    const { client } = await overHttp(mcp, {
      elicitationCallback: async () => ({ action: "accept", content: { region: "eu" } }),
    });
    expect((await client.callTool("provision", { name: "orders" })).content).toEqual([
      { type: "text", text: "Provisioned orders" },
    ]);
  });
});
