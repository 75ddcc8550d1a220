import { defineConfig } from "vitest/config";

// `npm run test:package`: the package as a user installs it (packed, installed into a fresh
// project, run and type-checked there). Apart from `npm test`, whose vitest run it would outlast:
// it builds, installs from the registry and type-checks with two TypeScript versions.
export default defineConfig({
  test: {
    include: ["test/package/**/*.package-test.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
