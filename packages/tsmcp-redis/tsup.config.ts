import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts" },
  // The SDK is a peer dependency, imported through its public entry `tsmcp/state` and resolved
  // where the package is installed; tsup keeps dependencies and peer dependencies external.
  removeNodeProtocol: false,
  format: ["esm"],
  // Declarations come from `tsc -p tsconfig.build.json`.
  dts: false,
  sourcemap: true,
  clean: false,
  target: "node20",
  keepNames: true,
});
