/**
 * Progress notifications on stderr: on a terminal a `@clack/prompts` progress bar (a spinner when
 * the server gives no total) that redraws itself, put away before a question is asked and when the
 * call ends; otherwise one plain line per update (`progress 2/3 Copying`).
 * Spec: basic/utilities/progress.
 */
import * as prompts from "@clack/prompts";
import type { ProgressNotificationParams } from "tsmcp/types";
import { liveness } from "./liveness.js";
import { safeText } from "./terminal.js";

/** What the progress of one command shows. */
export interface ProgressDisplay {
  /** Shows one update. */
  update(progress: ProgressNotificationParams): void;
  /** Puts the bar away (before a question, at the end of the call). Idempotent. */
  stop(): void;
}

/** One update as text: `2/3 Copying`, `2` (the server's message made safe for a terminal). */
export function progressLabel(progress: ProgressNotificationParams): string {
  const total = progress.total === undefined ? "" : `/${progress.total}`;
  return safeText(`${progress.progress}${total}${progress.message ? ` ${progress.message}` : ""}`);
}

/** The bar on screen, if any, so that a question can put it away first. */
let shown: ProgressDisplay | undefined;

/** Puts away the progress bar on screen, if any (before a prompt draws). */
export function pauseProgress(): void {
  shown?.stop();
}

/** A progress bar (or spinner) on the terminal's stderr. */
function terminalProgress(): ProgressDisplay {
  let active: (prompts.SpinnerResult & { advance?: (step: number, msg?: string) => void }) | undefined;
  let max: number | undefined;
  let last = 0;
  let lastLabel: string | undefined;
  const display: ProgressDisplay = {
    update(progress) {
      const label = progressLabel(progress);
      const total = progress.total !== undefined && progress.total > 0 ? progress.total : undefined;
      if (active === undefined || max !== total) {
        display.stop();
        active =
          total === undefined
            ? prompts.spinner({ output: process.stderr })
            : prompts.progress({ max: total, output: process.stderr });
        if (shown !== display) liveness.hold();
        active.start(label);
        max = total;
        last = 0;
        shown = display;
      }
      if (active.advance !== undefined) active.advance(Math.max(0, progress.progress - last), label);
      else active.message(label);
      last = progress.progress;
      lastLabel = label;
      if (total !== undefined && progress.progress >= total) display.stop();
    },
    stop() {
      active?.stop(lastLabel);
      active = undefined;
      lastLabel = undefined;
      if (shown === display) {
        shown = undefined;
        liveness.release();
      }
    },
  };
  return display;
}

/** One line per update, for a log or a pipe. */
function plainProgress(write: (line: string) => void): ProgressDisplay {
  return { update: (progress) => write(`progress ${progressLabel(progress)}`), stop: () => {} };
}

/**
 * The display for this process: a bar when stderr is a terminal, else plain lines through `write`;
 * nothing with `--quiet`.
 */
export function progressDisplay(write: (line: string) => void): ProgressDisplay {
  if (liveness.quiet) return { update: () => {}, stop: () => {} };
  return process.stderr.isTTY === true ? terminalProgress() : plainProgress(write);
}
