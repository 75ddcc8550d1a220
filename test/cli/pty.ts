/**
 * A real pseudo-terminal for the `tsmcp` command: the util-linux `script` utility runs it on a
 * pty (80 columns), the test types into the pty and reads the screen. Output is read with escape
 * sequences removed; `waitFor` waits on the screen's text, never on time.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { onTestFinished } from "vitest";
import { ensureDebianProgram } from "../helpers/debian-package.js";
import { BIN, ROOT } from "./run-cli.js";

/** The `script` utility (Debian's bsdutils), installed when missing; a test that cannot have it fails. */
function scriptUtility(): string {
  return ensureDebianProgram({ command: "script", paths: ["/usr/bin/script"], package: "bsdutils" });
}

/** Keys as a terminal sends them. */
export const KEY = {
  down: "\x1b[B",
  up: "\x1b[A",
  enter: "\r",
  space: " ",
  escape: "\x1b",
  backspace: "\x7f",
  ctrlC: "\x03",
  ctrlD: "\x04",
};

/** The command on a pty: what it drew so far, a way to type, and how it exits. */
export interface Terminal {
  /** Everything drawn so far, escape sequences removed. */
  screen(): string;
  /** Resolves once `text` appears on the screen after everything matched before. */
  waitFor(text: string | RegExp): Promise<void>;
  /** Types `keys`. */
  type(keys: string): void;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/** CSI sequences (colours, cursor moves, erasing) and the save/restore-cursor escapes. */
const ESCAPES = new RegExp(`${"\u001b"}(?:\\[[0-9;?]*[a-zA-Z]|[78])`, "g");

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** Runs `tsmcp <args>` on a pseudo-terminal. */
export function onTerminal(args: readonly string[]): Terminal {
  const command = `stty cols 80 rows 50; exec ${[process.execPath, BIN, ...args].map(quote).join(" ")}`;
  const child: ChildProcessWithoutNullStreams = spawn(scriptUtility(), ["-qfec", command, "/dev/null"], {
    cwd: ROOT,
    env: { ...process.env, TERM: "xterm-256color" },
  });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  let raw = "";
  let seen = 0;
  const waiters = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    raw += chunk.toString();
    for (const check of waiters) check();
  });
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const screen = () => raw.replace(ESCAPES, "");
  return {
    screen,
    exited,
    type: (keys) => {
      child.stdin.write(keys);
    },
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          const rest = screen().slice(seen);
          const found = typeof text === "string" ? rest.indexOf(text) : rest.search(text);
          if (found < 0) return;
          seen += found + 1;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        void exited.then(() => {
          if (waiters.delete(check)) reject(new Error(`exited before showing ${text}:\n${screen()}`));
        });
        check();
      }),
  };
}
