/**
 * Ending a stdio server process the way the spec asks: close its stdin, give it time to exit on
 * its own, then SIGTERM, then SIGKILL (both are `TerminateProcess` on Windows). Resolves only once
 * the process has exited, so it has been reaped. Spec: basic/transports/stdio §Shutdown.
 */
import type { ChildProcess } from "node:child_process";

/** How long a server gets to exit after its stdin closes before SIGTERM: 2000 ms. */
export const DEFAULT_CLOSE_GRACE_PERIOD_MS = 2000;

/** How long a server gets to exit after SIGTERM before SIGKILL: 2000 ms. */
export const DEFAULT_TERMINATE_GRACE_PERIOD_MS = 2000;

/** How a process ended: its exit code, or the signal that killed it. */
export interface ProcessExit {
  /** The exit code; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it; null when it exited by itself. */
  signal: NodeJS.Signals | null;
}

/** The step that ended a process in {@link terminateProcess}. */
export type TerminationStep = "exited" | "SIGTERM" | "SIGKILL";

/** True once the process has exited (and Node has reaped it). */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Resolves with true once `child` exits, or false after `timeoutMs` milliseconds, whichever comes
 * first. Leaves no listener or timer behind.
 */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      child.off("exit", onExit);
      resolve(hasExited(child));
    }, timeoutMs);
    child.once("exit", onExit);
  });
}

/**
 * Ends `child`: closes its stdin, waits `closeGracePeriodMs`, sends SIGTERM, waits
 * `terminateGracePeriodMs`, sends SIGKILL and waits for the exit. Resolves with the step that
 * ended it. Never rejects.
 */
export async function terminateProcess(
  child: ChildProcess,
  options: { closeGracePeriodMs: number; terminateGracePeriodMs: number },
): Promise<TerminationStep> {
  if (hasExited(child)) return "exited";
  child.stdin?.end();
  if (await waitForExit(child, options.closeGracePeriodMs)) return "exited";
  child.kill("SIGTERM");
  if (await waitForExit(child, options.terminateGracePeriodMs)) return "SIGTERM";
  child.kill("SIGKILL");
  while (!(await waitForExit(child, options.terminateGracePeriodMs))) child.kill("SIGKILL");
  return "SIGKILL";
}

/** Resolves once `promise` settles or after `timeoutMs`, whichever comes first; leaves no timer. */
export async function settlesWithin(promise: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
