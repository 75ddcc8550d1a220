/**
 * A recorded run must come from a quiet machine: another process's load inflates every wall-time
 * figure and, through shared caches and cores, the CPU-time ones too. Before measuring, the harness
 * waits for the 1-minute load average to fall to {@link QUIET_LOAD} and refuses to run when it does
 * not, unless forced; it prints the load before and after so that the record says what it was.
 */
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

/** The highest 1-minute load average a recorded run may start at. */
export const QUIET_LOAD = 1.5;

/** How long the harness waits for a busy machine to quiet down before refusing, in milliseconds. */
export const QUIET_WAIT_MS = 120_000;

const POLL_MS = 5_000;

/** The 1-, 5- and 15-minute load averages, as `1.23 / 0.98 / 0.75`. */
export function formatLoad(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(" / ");
}

/** The refusal to measure on a busy machine; the runner prints its message alone and exits 1. */
export class MachineBusyError extends Error {
  override readonly name = "MachineBusyError";
}

/** What {@link awaitQuietMachine} found. */
export interface QuietCheck {
  /** The 1-minute load average when measuring starts. */
  readonly load1m: number;
  /** True when the run starts above {@link QUIET_LOAD} because it was forced (or is a `--quick` smoke run). */
  readonly forced: boolean;
}

/**
 * Waits up to `waitMs` for the 1-minute load average to fall to {@link QUIET_LOAD}; resolves with
 * the load then. When it stays above, resolves with `forced: true` if `force` is set, and otherwise
 * throws a {@link MachineBusyError} naming the load and the `--force` flag.
 */
export async function awaitQuietMachine(options: {
  readonly force: boolean;
  readonly waitMs?: number;
  readonly log: (line: string) => void;
}): Promise<QuietCheck> {
  const { force, waitMs = QUIET_WAIT_MS, log } = options;
  const deadline = Date.now() + waitMs;
  let load1m = loadavg()[0] ?? 0;
  if (load1m > QUIET_LOAD && !force) {
    log(
      `load average ${formatLoad()} is above ${QUIET_LOAD}; waiting up to ${waitMs / 1000} s for it to fall`,
    );
  }
  while (load1m > QUIET_LOAD && !force && Date.now() < deadline) {
    await sleep(POLL_MS);
    load1m = loadavg()[0] ?? 0;
  }
  if (load1m <= QUIET_LOAD) return { load1m, forced: false };
  if (force) return { load1m, forced: true };
  throw new MachineBusyError(
    `the machine is busy: 1-minute load average ${load1m.toFixed(2)} is above ${QUIET_LOAD} after waiting ${waitMs / 1000} s. ` +
      "Numbers from a busy machine are not a record; stop what else runs, or pass --force to measure anyway (the table then says so).",
  );
}
