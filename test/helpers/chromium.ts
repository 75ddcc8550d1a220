/**
 * A headless Chromium for the browser tests: Debian's `chromium` package (installed by
 * {@link ensureChromium} when missing; never a browser downloaded by Playwright), driven by
 * `playwright-core` with a fresh user-data directory that {@link launchChromium}'s `close` removes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { ensureDebianProgram } from "./debian-package.js";

/** Where Debian installs the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** The flags every launch uses: headless, no sandbox (root in CI), and no network of its own. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

/**
 * Makes sure `/usr/bin/chromium` exists, installing Debian's `chromium` package when it does not.
 *
 * @throws Error when it is missing and cannot be installed (no root nor passwordless sudo, or
 *   apt-get failed).
 */
export function ensureChromium(): string {
  ensureDebianProgram({ command: "chromium", paths: [CHROMIUM_PATH], package: "chromium" });
  return CHROMIUM_PATH;
}

/** A running headless Chromium. */
export interface RunningChromium {
  /** Its browser context (pages: `context.newPage()`). */
  readonly context: BrowserContext;
  /** Closes the browser and removes its user-data directory. */
  close(): Promise<void>;
}

/** Launches headless Chromium (installing it first when missing) with a fresh user-data directory. */
export async function launchChromium(): Promise<RunningChromium> {
  const executablePath = ensureChromium();
  const userDataDir = mkdtempSync(join(tmpdir(), "tsmcp-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
    });
    return {
      context,
      close: async () => {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
