import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (path: string) => fileURLToPath(new URL(`./packages/tsmcp/src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Examples import the package by name, as a user would; map the subpaths to the sources.
    alias: [
      { find: /^tsmcp\/server$/, replacement: src("server/index.ts") },
      { find: /^tsmcp\/client$/, replacement: src("client/index.ts") },
      { find: /^tsmcp\/client\/auth$/, replacement: src("client/auth/index.ts") },
      { find: /^tsmcp\/state$/, replacement: src("state/index.ts") },
      { find: /^tsmcp\/workers$/, replacement: src("transport/http/workers/index.ts") },
      { find: /^tsmcp\/types$/, replacement: src("protocol/index.ts") },
      { find: /^tsmcp\/transport$/, replacement: src("transport/index.ts") },
      { find: /^tsmcp\/node$/, replacement: src("node/index.ts") },
      { find: /^tsmcp\/stdio$/, replacement: src("stdio/index.ts") },
      { find: /^tsmcp\/telemetry$/, replacement: src("telemetry/index.ts") },
      { find: /^tsmcp\/skills$/, replacement: src("extensions/skills/index.ts") },
      { find: /^tsmcp\/testing$/, replacement: src("testing/index.ts") },
      { find: /^tsmcp\/apps$/, replacement: src("extensions/apps/index.ts") },
      {
        find: /^tsmcp-redis$/,
        replacement: fileURLToPath(new URL("./packages/tsmcp-redis/src/index.ts", import.meta.url)),
      },
      {
        find: /^tsmcp-cli$/,
        replacement: fileURLToPath(new URL("./packages/tsmcp-cli/src/index.ts", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    globalSetup: ["test/build-packages.ts", "test/system-packages.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    typecheck: { enabled: true, include: ["packages/*/src/**/*.test-d.ts", "test/**/*.test-d.ts"] },
  },
});
