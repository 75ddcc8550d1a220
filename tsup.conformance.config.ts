/**
 * Build of the conformance fixtures (not part of the package): the everything-server and the
 * everything-client, compiled once so each scenario process starts without TypeScript compilation.
 * `npm run conformance:build` writes `dist-conformance/{server,client}.js`.
 */
import { defineConfig } from "tsup";

export default defineConfig({
  entry: { server: "test/conformance/server.ts", client: "test/conformance/client.ts" },
  outDir: "dist-conformance",
  format: ["esm"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: "node20",
  splitting: false,
  // yaml's Node build is CommonJS that requires "process", which a bundled ES module cannot; the
  // fixtures run inside the repository, where Node loads it from node_modules.
  external: ["yaml"],
});
