/**
 * What registering a tool costs the type checker, as a count: type instantiations (deterministic
 * for a given TypeScript and zod), never a time. The fixtures are generated servers of zod tools
 * (`bench/lib/type-check-fixture.ts`, the generator of bench stage 12) checked against tsmcp's
 * sources with the compiler API; only the fixture file is checked, and the difference between two
 * sizes is what each further tool costs.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSpec, generateServerSource } from "../bench/lib/type-check-fixture.js";

/** Instantiations one more plain zod tool may cost (about 445 today; the official SDK's cost 717). */
const MAX_INSTANTIATIONS_PER_TOOL = 500;

/**
 * Instantiations the server's first tool with a resolver may cost, the resolver types' one-time
 * work included (about 1,460 today; a second one costs about 620, two plain tools about 680).
 */
const MAX_INSTANTIATIONS_FIRST_RESOLVER_TOOL = 1_550;

/** Plain tools of the smaller fixture (a multiple of the generator's eight schema shapes). */
const TOOLS = 40;

const REPO = fileURLToPath(new URL("..", import.meta.url));
const SERVER_ENTRY = join(REPO, "packages/tsmcp/src/server/index.js");

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ["node"],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

/** A program's internal counters (present on every TypeScript 5 program, not in its typings). */
interface Counters {
  getInstantiationCount(): number;
}

let dir: string;
let previous: ts.Program | undefined;

/** Checks one generated server and answers the instantiations its check took, failing on any error. */
function instantiations(name: string, spec: Omit<FixtureSpec, "specifiers">): number {
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, generateServerSource({ ...spec, specifiers: { tsmcp: SERVER_ENTRY } }));
  const program = ts.createProgram([file], OPTIONS, undefined, previous);
  previous = program;
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} is not in the program`);
  const errors = program
    .getSemanticDiagnostics(source)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
  expect(errors).toEqual([]);
  return (program as unknown as Counters).getInstantiationCount();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tsmcp-type-cost-"));
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "type": "module", "private": true }\n');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the type-check cost of tools", () => {
  it(`keeps each further zod tool under ${MAX_INSTANTIATIONS_PER_TOOL} type instantiations`, () => {
    const small = instantiations("small", { sdk: "tsmcp", tools: TOOLS });
    const large = instantiations("large", { sdk: "tsmcp", tools: 2 * TOOLS });
    const perTool = (large - small) / TOOLS;
    expect(perTool).toBeGreaterThan(0);
    expect(perTool).toBeLessThanOrEqual(MAX_INSTANTIATIONS_PER_TOOL);
  }, 300_000);

  it("checks a further tool with a resolver in no more instantiations than two plain tools", () => {
    const base = instantiations("base", { sdk: "tsmcp", tools: TOOLS });
    const oneResolverTool = instantiations("resolver", { sdk: "tsmcp", tools: TOOLS, resolverTools: 1 });
    const twoResolverTools = instantiations("resolvers", { sdk: "tsmcp", tools: TOOLS, resolverTools: 2 });
    const twoPlainTools = instantiations("plain", { sdk: "tsmcp", tools: TOOLS + 2 }) - base;
    const furtherResolverTool = twoResolverTools - oneResolverTool;
    expect(furtherResolverTool).toBeGreaterThan(0);
    expect(furtherResolverTool).toBeLessThanOrEqual(twoPlainTools);
    expect(oneResolverTool - base).toBeLessThanOrEqual(MAX_INSTANTIATIONS_FIRST_RESOLVER_TOOL);
  }, 300_000);
});
