/**
 * The one-channel refusal as a user reads it: compiling a tool with resolvers whose handler returns
 * an `InputRequiredResult` fails with a message that states the rule, whatever the handler's
 * shape (sync or async, with or without an output schema).
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const PROBE = join(here, "one-channel-probe.ts");

const SOURCE = `
import * as z from "zod";
import { inputRequired } from "../input-required.js";
import { elicit } from "../resolve/elicit.js";
import { resolver } from "../resolve/resolver.js";
import { MCPServer } from "./server.js";

const mcp = new MCPServer("probe");
const ask = () => inputRequired({ requestState: "s" });
const region = resolver("region", () => elicit("?", z.object({ region: z.string() })));
mcp.tool("sync", { resolve: { region } }, () => ask());
mcp.tool("async", { resolve: { region } }, async (_a, ctx) => (ctx.resolved.region.region ? "ok" : ask()));
mcp.tool("typed", { outputSchema: z.object({ n: z.number() }), resolve: { region } }, () => ask());
mcp.tool("untyped", { outputSchema: { type: "object" }, resolve: { region } }, async () => ask());
mcp.tool("fine", { resolve: { region } }, (_a, ctx) => ctx.resolved.region.region);
`;

/** The diagnostics of compiling {@link SOURCE} beside the real modules, one message per error. */
function probeDiagnostics(): { line: number; message: string }[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => file === PROBE || fileExists.call(host, file);
  host.readFile = (file) => (file === PROBE ? SOURCE : readFile.call(host, file));
  host.getSourceFile = (file, language, ...rest) =>
    file === PROBE
      ? ts.createSourceFile(file, SOURCE, language)
      : getSourceFile.call(host, file, language, ...rest);
  const program = ts.createProgram([PROBE], options, host);
  const probe = program.getSourceFile(PROBE);
  if (probe === undefined) throw new Error("the probe was not compiled");
  return program.getSemanticDiagnostics(probe).map((diagnostic) => ({
    line: probe.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
  }));
}

describe("a tool with resolvers that returns an InputRequiredResult", () => {
  it("fails to compile with a message that states the one-channel rule", () => {
    const diagnostics = probeDiagnostics();
    expect(diagnostics.map((d) => d.line)).toEqual([11, 12, 13, 14]);
    for (const { message } of diagnostics) {
      expect(message).toContain("a tool with resolvers cannot return an InputRequiredResult");
      expect(message).toContain("ResolverToolInputRequired");
    }
  }, 60_000);
});
