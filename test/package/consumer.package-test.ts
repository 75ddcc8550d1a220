/**
 * The packages as a user installs them: `npm pack` of the SDK, of the Redis state stores and of the
 * command (each `prepack` builds it), then the tarballs installed with the registry's dependencies into a fresh project, with the oldest supported
 * TypeScript. There the fixtures of `consumer/` run: an ESM server and client completing an MRTR
 * flow over HTTP on 127.0.0.1, the same flow through `require()` from CommonJS, a server and a
 * client with telemetry on where `@opentelemetry/api` (an optional peer) is not installed, the installed
 * `tsmcp` bin, and `tsc --noEmit` of a TypeScript consumer under node16, nodenext and bundler
 * resolution, and of a browser-style consumer of the runtime-neutral entries without `@types/node`,
 * at the floor version and at the repository's own. Run by `npm run test:package`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

/**
 * The oldest TypeScript that type-checks a consumer of the package's declarations (with
 * `skipLibCheck` off). Older releases lack `NoInfer` (added in 5.4), which the declarations of
 * `MCPServer` and of zod use; 5.4.2 still rejects a rest element in zod's declarations.
 */
const TYPESCRIPT_FLOOR = "5.4.3";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const fixtures = fileURLToPath(new URL("consumer/", import.meta.url));
/** The TypeScript this repository builds with (its devDependency). */
const currentTsc = join(repo, "node_modules", "typescript", "bin", "tsc");
/**
 * The consumer's configurations: `consumer.ts` (every entry, `"types": ["node"]`) under each
 * resolution, and `neutral.ts` (the runtime-neutral entries only) with `lib: ["ES2022", "DOM"]`
 * and `"types": []`, the default from TypeScript 6 on, so no declaration they reach needs
 * `@types/node`.
 */
const CONFIGS = ["node16", "nodenext", "bundler", "neutral"] as const;
/** The most runtime packages the SDK may bring into a project that installs it alone. */
const MAX_SDK_PACKAGES = 12;
const FLOW_OUTPUT = "Provisioned orders in eu-west-1\n";

let scratch = "";
let app = "";
/** The files of the SDK's tarball, of the command's and of the Redis state stores'. */
let tarballFiles: string[] = [];
let cliTarballFiles: string[] = [];
let redisTarballFiles: string[] = [];
let sdkTarball = "";
let server: ChildProcess | undefined;
let serverUrl = "";

/** Runs a command in `cwd`; rejects with everything it printed on a non-zero exit. */
async function runIn(
  cwd: string,
  file: string,
  args: readonly string[],
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(" ")} failed in ${cwd}:\n${stdout}${stderr}`, { cause: error });
  }
}

/** Runs a command in the consumer project. */
function inApp(file: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return runIn(app, file, args);
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "tsmcp-consumer-"));
  app = join(scratch, "app");
  await mkdir(app);
  // The packages, each built by its `prepack` script: the SDK first, since the others'
  // declarations name the SDK's.
  const packed = await runIn(repo, "npm", [
    "pack",
    "--workspace",
    "tsmcp",
    "--workspace",
    "tsmcp-redis",
    "--workspace",
    "tsmcp-cli",
    "--json",
    "--pack-destination",
    scratch,
  ]);
  const infos = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as {
    name: string;
    filename: string;
    files: { path: string }[];
  }[];
  const sdk = infos.find((info) => info.name === "tsmcp");
  const cli = infos.find((info) => info.name === "tsmcp-cli");
  const redis = infos.find((info) => info.name === "tsmcp-redis");
  if (sdk === undefined || cli === undefined || redis === undefined)
    throw new Error(`npm pack printed no tarballs: ${packed.stdout}`);
  tarballFiles = sdk.files.map((file) => file.path);
  cliTarballFiles = cli.files.map((file) => file.path);
  redisTarballFiles = redis.files.map((file) => file.path);
  sdkTarball = join(scratch, sdk.filename);

  const manifest = JSON.parse(await readFile(join(repo, "package.json"), "utf8"));
  const typesNode = manifest.devDependencies["@types/node"] as string;
  await writeFile(
    join(app, "package.json"),
    JSON.stringify({ name: "tsmcp-consumer", private: true, type: "module" }),
  );
  for (const name of await readdir(fixtures)) await copyFile(join(fixtures, name), join(app, name));
  await inApp("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    sdkTarball,
    join(scratch, cli.filename),
    join(scratch, redis.filename),
    `typescript@${TYPESCRIPT_FLOOR}`,
    `@types/node@${typesNode}`,
  ]);

  server = spawn(process.execPath, ["server.mjs"], { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
  server.stderr?.resume(); // its warnings (a process-local requestState key) are expected; drain them
  const lines = createInterface({ input: server.stdout as NodeJS.ReadableStream });
  const [first] = (await Promise.race([
    once(lines, "line"),
    once(server, "exit").then(([code]) => {
      throw new Error(`server.mjs exited with ${code} before printing its URL`);
    }),
  ])) as [string];
  serverUrl = first;
});

afterAll(async () => {
  if (server !== undefined && server.exitCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

describe("the packed package installed into a fresh project", () => {
  it("ships the SDK's build, license and readme, and no sources, no command", () => {
    expect(tarballFiles).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        "dist/server/index.js",
        "dist/server/index.d.ts",
        "dist/stdio/unsupported.js",
      ]),
    );
    expect(tarballFiles.filter((path) => path.startsWith("src/") || path.includes(".test."))).toEqual([]);
    expect(tarballFiles.filter((path) => path.startsWith("bin/") || path.startsWith("dist/cli/"))).toEqual(
      [],
    );
  });

  it("ships the command's bin and build, and no sources", () => {
    expect(cliTarballFiles).toEqual(
      expect.arrayContaining(["LICENSE", "README.md", "package.json", "bin/tsmcp.js", "dist/index.js"]),
    );
    expect(cliTarballFiles.filter((path) => path.startsWith("src/") || path.includes(".test."))).toEqual([]);
  });

  it("ships the Redis state stores' build, and no sources, no tests", () => {
    expect(redisTarballFiles).toEqual(
      expect.arrayContaining(["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.d.ts"]),
    );
    expect(
      redisTarballFiles.filter(
        (path) =>
          path.startsWith("src/") ||
          path.includes("test") ||
          (path.endsWith(".ts") && !path.endsWith(".d.ts")),
      ),
    ).toEqual([]);
  });

  it(`installs the SDK alone with at most ${MAX_SDK_PACKAGES} runtime packages, none of the command's`, async () => {
    const lean = join(scratch, "lean");
    await mkdir(lean);
    await writeFile(
      join(lean, "package.json"),
      JSON.stringify({ name: "lean", private: true, type: "module" }),
    );
    await runIn(lean, "npm", [
      "install",
      "--omit=dev",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      sdkTarball,
    ]);
    const lock = JSON.parse(await readFile(join(lean, "package-lock.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    const installed = Object.keys(lock.packages)
      .filter((path) => path.startsWith("node_modules/"))
      .map((path) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(installed).toContain("tsmcp");
    const dependencies = installed.filter((name) => name !== "tsmcp");
    expect(dependencies.length, dependencies.join(", ")).toBeLessThanOrEqual(MAX_SDK_PACKAGES);
    for (const name of [
      "commander",
      "@clack/prompts",
      "open",
      "shell-quote",
      "tsmcp-cli",
      "tsmcp-redis",
      "redis",
    ])
      expect(dependencies).not.toContain(name);
  });

  it("serves and calls over HTTP from ES modules, completing an MRTR round", async () => {
    expect(serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { stdout } = await inApp(process.execPath, ["client.mjs", serverUrl]);
    expect(stdout).toBe(FLOW_OUTPUT);
  });

  it("runs a server and a client with telemetry on where @opentelemetry/api is not installed", async () => {
    expect(existsSync(join(app, "node_modules", "@opentelemetry", "api"))).toBe(false);
    const { stdout } = await inApp(process.execPath, ["telemetry.mjs"]);
    expect(JSON.parse(stdout)).toEqual({
      text: "echoed",
      failed: -32603,
      logged: [["handler for tools/call failed", ["error"]]],
      traceFields: null,
    });
  });

  it.runIf(process.features.require_module)(
    "serves and calls through require() from CommonJS (Node's require of ES modules)",
    async () => {
      const { stdout } = await inApp(process.execPath, ["flow.cjs"]);
      expect(stdout).toBe(FLOW_OUTPUT);
    },
  );

  it("keeps the classes' names through the bundler (an error's constructor.name is its name)", async () => {
    const script =
      'const { McpError } = await import("tsmcp/types"); const { Client } = await import("tsmcp/client");' +
      'process.stdout.write([new McpError(-32603, "x").constructor.name, Client.name].join(" "));';
    const { stdout } = await inApp(process.execPath, ["--input-type=module", "-e", script]);
    expect(stdout).toBe("McpError Client");
  });

  it("runs the installed tsmcp bin from dist/", async () => {
    const help = await inApp("npx", ["--no", "--", "tsmcp", "--help"]);
    expect(help.stdout).toContain("Usage: tsmcp");
    const tools = await inApp("npx", ["--no", "--", "tsmcp", "tools", serverUrl]);
    expect(tools.stdout).toContain("provision(name*: string)");
  });

  it(`type-checks a TypeScript consumer with the floor, TypeScript ${TYPESCRIPT_FLOOR}`, async () => {
    const version = await inApp(join(app, "node_modules", ".bin", "tsc"), ["--version"]);
    expect(version.stdout.trim()).toBe(`Version ${TYPESCRIPT_FLOOR}`);
    for (const config of CONFIGS) {
      await expect(
        inApp(join(app, "node_modules", ".bin", "tsc"), ["-p", `tsconfig.${config}.json`]),
        config,
      ).resolves.toBeDefined();
    }
  });

  it("type-checks the same consumer with the repository's TypeScript", async () => {
    for (const config of CONFIGS) {
      await expect(
        inApp(process.execPath, [currentTsc, "-p", `tsconfig.${config}.json`]),
        config,
      ).resolves.toBeDefined();
    }
  });
});
