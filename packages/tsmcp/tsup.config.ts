import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    "server/index": "src/server/index.ts",
    "client/index": "src/client/index.ts",
    "client/auth/index": "src/client/auth/index.ts",
    "state/index": "src/state/index.ts",
    "transport/http/workers/index": "src/transport/http/workers/index.ts",
    "protocol/index": "src/protocol/index.ts",
    "transport/index": "src/transport/index.ts",
    "node/index": "src/node/index.ts",
    "stdio/index": "src/stdio/index.ts",
    "stdio/unsupported": "src/stdio/unsupported.ts",
    "telemetry/index": "src/telemetry/index.ts",
    "extensions/skills/index": "src/extensions/skills/index.ts",
    "testing/index": "src/testing/index.ts",
    "extensions/apps/index": "src/extensions/apps/index.ts",
  },
  // `Client.connect` loads stdio on demand with `import("tsmcp/stdio")`, a self-reference resolved
  // where the package is used, through its export conditions: `"node"` -> dist/stdio/index.js,
  // anything else (a browser or neutral bundle) -> dist/stdio/unsupported.js, whose exports throw.
  // Kept external here, so the runtime-neutral entries never contain either.
  external: ["tsmcp/stdio"],
  // Keep `node:` specifiers as written: Deno and workerd resolve Node built-ins only by that name.
  removeNodeProtocol: false,
  format: ["esm"],
  // Declarations come from `tsc -p tsconfig.build.json` (one .d.ts per source module, so a class
  // shared by two entry points is one declaration), faster than bundling them here.
  dts: false,
  sourcemap: true,
  // The build script cleans (`tsup --clean`); the test run rebuilds the JavaScript beside the
  // declarations without removing them.
  clean: false,
  target: "node20",
  splitting: true,
  // Keep class and function names as written (`error.constructor.name` is "McpError", not the
  // bundler's renamed "_McpError"); costs a few percent of bundle size.
  keepNames: true,
});
