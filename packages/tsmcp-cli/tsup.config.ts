import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts" },
  // The SDK is a dependency, imported through its public entries (`tsmcp/client`, `tsmcp/types`)
  // and resolved where the command is installed; tsup keeps dependencies external.
  removeNodeProtocol: false,
  format: ["esm"],
  // Declarations come from `tsc -p tsconfig.build.json`.
  dts: false,
  sourcemap: true,
  // The build script cleans (`tsup --clean`); the test run rebuilds the JavaScript beside the
  // declarations without removing them.
  clean: false,
  target: "node20",
  keepNames: true,
});
