/**
 * tsmcp's logs through pino, as `npm run example -- pino-logger`: a four-line adapter turns a pino
 * logger into tsmcp's `Logger` (pino takes the fields first, then the message), and a failure the
 * server logs carries the `trace_id` and `span_id` of the request's server span (here in the trace
 * of the caller's span). Prints pino's JSON lines on stdout.
 */
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { type BaseLogger, pino, stdSerializers } from "pino";
import { Client } from "tsmcp/client";
import { Server } from "tsmcp/server";
import type { Logger } from "tsmcp/types";

/** tsmcp's `Logger` on a pino logger (or one of its children). */
export function pinoLogger(log: BaseLogger): Logger {
  return {
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}

/** A pino logger for tsmcp: tsmcp puts an `Error` in the `error` field, so serialize it there. */
export function createPino(destination?: NodeJS.WritableStream): BaseLogger {
  const options = { base: { service: "inventory" }, serializers: { error: stdSerializers.err } };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** A server whose one tool fails unexpectedly: the server logs the failure, the client gets -32603. */
export function createInventoryServer(log: BaseLogger): Server {
  return new Server("inventory", {
    version: "1.0.0",
    logger: pinoLogger(log),
    onListTools: () => ({ tools: [{ name: "count", inputSchema: { type: "object" } }] }),
    onCallTool: () => {
      throw new Error("the inventory database is down");
    },
  });
}

/** Calls the failing tool inside a span, so the server's log line carries its trace id. */
export async function callInSpan(server: Server): Promise<string> {
  const client = await Client.connect(server);
  try {
    return await trace.getTracer("pino-example").startActiveSpan("restock", async (span) => {
      await client.callTool("count").catch(() => undefined);
      span.end();
      return span.spanContext().traceId;
    });
  } finally {
    await client.close();
  }
}

export async function main(): Promise<void> {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const provider = new BasicTracerProvider();
  trace.setGlobalTracerProvider(provider);
  try {
    const traceId = await callInSpan(createInventoryServer(createPino()));
    console.log(`trace: ${traceId}`);
  } finally {
    await provider.shutdown();
    trace.disable();
    context.disable();
  }
}
