import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "server/index": "src/server/index.ts",
    "client/index": "src/client/index.ts",
    "protocol/index": "src/protocol/index.ts",
    "transport/index": "src/transport/index.ts",
    "node/index": "src/node/index.ts",
    "stdio/index": "src/stdio/index.ts",
  },
  // `Client.connect` loads stdio on demand with `import("tsmcp/stdio")`, a self-reference that Node
  // resolves to dist/stdio at run time; kept external, the runtime-neutral entries never contain it.
  external: ["tsmcp/stdio"],
  // Keep `node:` specifiers as written: Deno and workerd resolve Node built-ins only by that name.
  removeNodeProtocol: false,
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  splitting: true,
});
