/**
 * Vitest global setup: the programs `npm test` needs from Debian's packages (redis-server for the
 * Redis stores, Chromium for the MCP Apps browser test), found or installed once, one after the
 * other, before any test file starts — so no two workers run apt-get at once, and no test's hook
 * waits on an install.
 */
import { ensureChromium } from "./helpers/chromium.js";
import { ensureRedisServer } from "./helpers/redis-server.js";

export default function setup(): void {
  ensureRedisServer();
  ensureChromium();
}
