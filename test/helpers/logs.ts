/**
 * What tsmcp logs during a test, kept for assertions instead of reaching the test output: a
 * logger that records every line, what the default logger writes to stderr while a piece of code
 * runs, and what the code under test prints with `console`. A line a test did not expect still
 * fails it: tests assert the exact lines.
 */
import { expect, onTestFinished, vi } from "vitest";
import type { LogFields, Logger, LogLevel } from "../../packages/tsmcp/src/protocol/logger.js";

/** One line a {@link RecordingLogger} was given. */
export interface LogRecord {
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: LogFields | undefined;
}

/** A logger that keeps every line, in order. */
export interface RecordingLogger extends Logger {
  readonly records: LogRecord[];
}

/** A fresh {@link RecordingLogger}. */
export function recordingLogger(): RecordingLogger {
  const records: LogRecord[] = [];
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      records.push({ level, message, fields });
    };
  return { records, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** The line the default logger writes when an `MCPServer` on the process-local key is served over HTTP. */
export const PROCESS_LOCAL_KEY_WARNING =
  /^\[tsmcp\] warn MCPServer: requestState is sealed with a process-local key;/;

/**
 * Runs `action` with `process.stderr.write` recording instead of writing, until `action` (or the
 * promise it returns) settles; resolves what it returned and the lines written meanwhile.
 */
export async function stderrOf<T>(action: () => T | Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
    lines.push(...text.split("\n").filter((line) => line !== ""));
    const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof process.stderr.write;
  try {
    return { result: await action(), lines };
  } finally {
    process.stderr.write = write;
  }
}

/**
 * Runs `start`, which serves an `MCPServer` on the default process-local key over HTTP (as the
 * examples do), and resolves what it returned, asserting it wrote the one process-local key
 * warning to stderr and nothing else.
 */
export async function warningOfProcessLocalKey<T>(start: () => Promise<T>): Promise<T> {
  const { result, lines } = await stderrOf(start);
  expect(lines).toEqual([expect.stringMatching(PROCESS_LOCAL_KEY_WARNING)]);
  return result;
}

/**
 * Records what the code under test prints with `console[method]` until the test ends, instead of
 * printing it: each call's arguments joined by a space, one entry per call.
 */
export function consoleLines(method: "log" | "error"): string[] {
  const lines: string[] = [];
  const spy = vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(" "));
  });
  onTestFinished(() => spy.mockRestore());
  return lines;
}
