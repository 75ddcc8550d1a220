/**
 * The main job (`npm start`): starts the provisioning server over Streamable HTTP on 127.0.0.1,
 * connects a client, and provisions a database. The server needs to know the region, so it answers
 * the first `tools/call` with an `InputRequiredResult`; the client asks you (or takes `--region`,
 * or the question's default when stdin is not a terminal), retries with your answer and the echoed
 * `requestState`, and prints the result. Every leg on the wire is shown.
 *
 * With `--server legacy` the server is a handshake-era one built on the official 1.x SDK
 * (`legacy-provisioning.ts`): the client's `server/discover` probe is refused, it falls back to
 * `initialize`, and the region question arrives as an `elicitation/create` request over the
 * back-channel, answered by the same callback.
 *
 * Usage: npm start [-- --region eu-west-1] [--name orders] [--server modern|legacy]
 */
import { parseArgs } from "node:util";
import { isCancel, select } from "@clack/prompts";
import { Client, type ElicitationCallback } from "tsmcp/client";
import { serve } from "tsmcp/node";
import {
  HttpClientTransport,
  type IncomingRequestOptions,
  type Transport,
  type TransportRequestOptions,
} from "tsmcp/transport";
import type {
  ElicitRequestFormParams,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
} from "tsmcp/types";
import { serveLegacyProvisioning } from "./legacy-provisioning.js";
import { createProvisioningServer } from "./provisioning.js";

const USAGE = "Usage: npm start [-- --region <region>] [--name <name>] [--server modern|legacy]";

/** A mistake on the command line: reported in one line with the usage, exit code 2. */
class UsageError extends Error {}

const dim = (text: string) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);

/** Wraps a transport to print each leg of a call as it crosses the wire. */
class NarratingTransport implements Transport {
  #round = 0;
  constructor(readonly inner: Transport) {}

  /** Whatever the inner transport does with HTTP headers (`Mcp-Param-*`), this one does too. */
  get sendsHttpHeaders(): boolean {
    return this.inner.sendsHttpHeaders;
  }

  /** The server's own requests (2025 era): shown as they arrive, then answered by the session. */
  get onRequest(): Transport["onRequest"] {
    return this.inner.onRequest;
  }

  set onRequest(handler: Transport["onRequest"]) {
    if (handler === undefined) {
      this.inner.onRequest = undefined;
      return;
    }
    this.inner.onRequest = async (request: JSONRPCRequest, options: IncomingRequestOptions) => {
      const message = (request.params as { message?: unknown } | undefined)?.message;
      console.log(
        `← ${request.method} ${JSON.stringify(message ?? "")} ${dim("(a request from the server, over the back-channel)")}`,
      );
      const result = await handler(request, options);
      console.log(`→ answer to ${request.method}: ${JSON.stringify(result)}`);
      return result;
    };
  }

  setProtocolEra(era: { kind: "modern" } | { kind: "legacy"; protocolVersion: string }): void {
    this.inner.setProtocolEra?.(era);
  }

  async request(request: JSONRPCRequest, options?: TransportRequestOptions): Promise<JSONRPCResponse> {
    const params = request.params ?? {};
    if (request.method === "server/discover" || request.method === "initialize") {
      return this.#handshake(request, options);
    }
    if (request.method === "tools/call") {
      const extras = [
        params.inputResponses ? `inputResponses [${Object.keys(params.inputResponses).join(", ")}]` : "",
        params.requestState !== undefined
          ? `requestState ${JSON.stringify(params.requestState)} (echoed)`
          : "",
      ].filter(Boolean);
      console.log(
        `→ tools/call ${params.name} ${JSON.stringify(params.arguments ?? {})}${extras.length ? ` + ${extras.join(" + ")}` : ""}`,
      );
    }
    const response = await this.inner.request(request, options);
    if (request.method === "tools/call" && "result" in response) {
      const result = response.result;
      if (result.resultType === "input_required") {
        this.#round += 1;
        console.log(`← input_required ${dim(`(round ${this.#round})`)}`);
        for (const [key, embedded] of Object.entries(
          (result.inputRequests ?? {}) as Record<string, { method: string; params?: { message?: string } }>,
        )) {
          console.log(
            `    inputRequests.${key}: ${embedded.method} ${JSON.stringify(embedded.params?.message ?? "")}`,
          );
        }
        if (result.requestState !== undefined)
          console.log(`    requestState: ${JSON.stringify(result.requestState)}`);
      } else {
        const text = (result.content as { type: string; text?: string }[] | undefined)
          ?.map((c) => c.text ?? `[${c.type}]`)
          .join(" ");
        // A 2025-era result has no resultType: it is complete.
        console.log(`← ${String(result.resultType ?? "result")}: ${text}`);
      }
    }
    return response;
  }

  notify(notification: JSONRPCNotification): Promise<void> {
    return this.inner.notify(notification);
  }

  /** Shows how the era is agreed: the `server/discover` probe, and `initialize` when it is refused. */
  async #handshake(request: JSONRPCRequest, options?: TransportRequestOptions): Promise<JSONRPCResponse> {
    console.log(`→ ${request.method}`);
    try {
      const response = await this.inner.request(request, options);
      if ("error" in response) console.log(`← error ${response.error.code}: ${response.error.message}`);
      else if (request.method === "initialize")
        console.log(`← ${String(response.result.protocolVersion)}: a session`);
      else console.log(`← supported: ${JSON.stringify(response.result.supportedVersions)}`);
      return response;
    } catch (error) {
      const status = (error as { httpStatus?: unknown }).httpStatus;
      const why = `${typeof status === "number" ? `HTTP ${status}: ` : ""}${error instanceof Error ? error.message : String(error)}`;
      console.log(`← ${why}`);
      if (request.method === "server/discover")
        console.log(dim("  an older server: falling back to initialize"));
      throw error;
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The choices a form offers for `field`, and its default. */
function choicesOf(params: ElicitRequestFormParams, field: string): { options: string[]; initial?: string } {
  const property = params.requestedSchema.properties[field] as
    | { enum?: string[]; default?: unknown }
    | undefined;
  const options = property?.enum ?? [];
  return typeof property?.default === "string" ? { options, initial: property.default } : { options };
}

/** Answers the region question from --region, the terminal, or the default. */
function regionAnswerer(regionFlag: string | undefined): ElicitationCallback {
  return async (params) => {
    if (params.mode === "url") return { action: "decline" };
    const { options, initial } = choicesOf(params, "region");
    if (regionFlag !== undefined && options.length > 0 && !options.includes(regionFlag)) {
      throw new UsageError(`--region must be one of ${options.join(", ")}, got ${regionFlag}`);
    }
    let region = regionFlag;
    if (region === undefined && process.stdin.isTTY) {
      const picked = await select({
        message: params.message,
        options: options.map((value) => ({ value, label: value })),
        ...(initial === undefined ? {} : { initialValue: initial }),
      });
      if (isCancel(picked)) return { action: "cancel" };
      region = picked;
    }
    region ??= initial ?? options[0] ?? "eu-west-1";
    console.log(dim(`  answering region: accept ${JSON.stringify({ region })}`));
    return { action: "accept", content: { region } };
  };
}

/** Runs the provisioning flow end to end over real HTTP. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  let values: { region?: string | undefined; name: string; server: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        region: { type: "string" },
        name: { type: "string", default: "orders" },
        server: { type: "string", default: "modern" },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.server !== "modern" && values.server !== "legacy") {
    throw new UsageError(`--server must be modern or legacy, got ${values.server}`);
  }
  const server =
    values.server === "legacy"
      ? await serveLegacyProvisioning()
      : await serve(createProvisioningServer(), { host: "127.0.0.1", port: 0 });
  console.log(
    bold(
      values.server === "legacy"
        ? "tsmcp: the same flow against a handshake-era server (official 1.x SDK, 2025-11-25)"
        : "tsmcp: a multi round-trip tools/call over Streamable HTTP",
    ),
  );
  console.log(dim(`server listening on ${server.url}\n`));
  const client = await Client.connect(new NarratingTransport(new HttpClientTransport(server.url)), {
    elicitationCallback: regionAnswerer(values.region),
  });
  console.log(dim(`agreed protocol version: ${client.protocolVersion}\n`));
  try {
    const result = await client.callTool("provision", { name: values.name });
    const text = result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
    console.log(`\n${bold(result.isError ? "Failed:" : "Result:")} ${text}`);
    if (result.isError) process.exitCode = 1;
  } finally {
    await client.close();
    await server.close();
  }
}

try {
  await main();
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`${error.message}\n${USAGE}`);
  process.exitCode = 2;
}
