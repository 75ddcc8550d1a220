/**
 * Pay for what you use, measured on the built package: a child `node` with a resolve hook
 * (record.mjs) runs a server answering one `tools/call` through a Client over the in-memory
 * transport, and reports which packages it resolved. A zod-only server loads none of the JSON
 * Schema engines nor `jose`, and its client (`tsmcp/client`) no OAuth library (`oauth4webapi` comes
 * with `tsmcp/client/auth` only); one with a raw JSON Schema tool loads the engines and validates its
 * very first call with them.
 */
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

interface Run {
  result?: { content: { type: string; text: string }[]; isError?: boolean };
  error?: { code: unknown; message: string };
  loaded: string[];
}

async function run(kind: "zod" | "raw", args: Record<string, unknown>): Promise<Run> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", resolve(here, "record.mjs"), resolve(here, "servers.mjs"), kind, JSON.stringify(args)],
    { cwd: here },
  );
  return JSON.parse(stdout) as Run;
}

/** The packages a specifier belongs to: `ajv/dist/2020.js` -> `ajv`, `@scope/name/x` -> `@scope/name`. */
function packages(loaded: readonly string[]): string[] {
  return loaded.map((specifier) => {
    const parts = specifier.split("/");
    return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
  });
}

const engines = ["ajv", "@cfworker/json-schema", "re2js"];

describe("what a server loads", () => {
  it("loads no JSON Schema engine, no jose and no OAuth library for a zod tool and its client", async () => {
    const { result, loaded } = await run("zod", { text: "hi" });
    expect(result?.content).toEqual([{ type: "text", text: "hi" }]);
    // The hook saw the program's own imports: a recorder that records nothing would pass below.
    expect(packages(loaded)).toEqual(expect.arrayContaining(["tsmcp", "zod"]));
    for (const name of [...engines, "jose", "oauth4webapi"]) expect(packages(loaded)).not.toContain(name);
  });

  it("loads the engines for a raw JSON Schema tool and answers its first call", async () => {
    const { result, loaded } = await run("raw", { text: "hi" });
    expect(result?.content).toEqual([{ type: "text", text: "hi" }]);
    expect(result?.isError).toBeUndefined();
    expect(packages(loaded)).toEqual(expect.arrayContaining(engines));
    expect(packages(loaded)).not.toContain("jose");
  });

  it("refuses a bad argument on the first call of a raw JSON Schema tool", async () => {
    const { result, error } = await run("raw", { text: "" });
    // Input validation failures are tool execution errors (a result with isError), not JSON-RPC errors.
    expect(error).toBeUndefined();
    expect(result?.isError).toBe(true);
    expect(result?.content[0]?.text).toMatch(
      /Invalid arguments for tool echo: text: must NOT have fewer than 1/,
    );
  });
});
