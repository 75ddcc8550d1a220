/**
 * `npm run conformance`: the official suite as a required check. Builds the fixtures and runs,
 * through `scripts/run-conformance.sh`, four legs: the server leg at 2026-07-28 and at 2025-11-25
 * (the same everything-server, one endpoint serving both eras, started afresh on a free loopback
 * port for each) and the client leg at 2026-07-28 and at 2025-11-25 (the everything-client, one
 * scenario at a time; at 2025-11-25 it connects with the `initialize` handshake).
 * It prints each leg's last line and judges each against its section of
 * `test/conformance/expected-failures.yaml`: it exits 1 when a scenario fails that is not on the
 * list, or a listed scenario passes (remove its entry), or the list names a scenario the run did not
 * have.
 *
 * The requirement sets leave the Skills extension's scenarios (`sep-2640-*`) out, scored or not, so
 * each leg runs them too, by name, in a second pass (`<leg>-extensions`): they are judged like the
 * others, and one whose checks all skipped (no real check ran: the extension was not declared, or
 * the client never listed skills) counts as not measured, which fails the leg.
 *
 * Environment: `CONFORMANCE_RESULTS` (where results go; default
 * `~/.cache/mcp-conformance/results/tsmcp-<utc>`), `CONFORMANCE_LEGS` (space-separated legs, each
 * `<role>@<revision>` or a bare role for all of that role's legs; default all four:
 * `server@2026-07-28 server@2025-11-25 client@2026-07-28 client@2025-11-25`), and everything
 * `scripts/run-conformance.sh` reads.
 */
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  entriesOf,
  judge,
  type Leg,
  parseExpectedFailures,
  type Role,
  requireRealChecks,
  type ScenarioOutcome,
} from "./expected-failures.js";

/** Every leg `npm run conformance` runs, in order. */
const LEGS: readonly Leg[] = [
  { role: "server", revision: "2026-07-28" },
  { role: "server", revision: "2025-11-25" },
  { role: "client", revision: "2026-07-28" },
  { role: "client", revision: "2025-11-25" },
];
/**
 * Extension scenarios no requirement set lists, run by name in each leg of their role: the Skills
 * extension (SEP-2640, io.modelcontextprotocol/skills).
 */
const EXTENSION_SCENARIOS: Readonly<Record<Role, readonly string[]>> = {
  server: ["sep-2640-skills-directory", "sep-2640-skills-enumeration", "sep-2640-skills-manifest"],
  client: [
    "sep-2640-client-no-prefetch",
    "sep-2640-client-verify-digest",
    "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter",
  ],
};
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const runner = join(root, "scripts/run-conformance.sh");

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** A TCP port nothing listens on right now (the server leg binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address !== null ? resolvePort(address.port) : reject(),
      );
    });
  });
}

/** The legs `CONFORMANCE_LEGS` names; throws on a name that is no leg. */
function selectLegs(spec: string | undefined): Leg[] {
  if (spec === undefined || spec.trim() === "") return [...LEGS];
  const chosen: Leg[] = [];
  for (const name of spec.split(/\s+/).filter(Boolean)) {
    const [role, revision] = name.split("@") as [Role, string | undefined];
    const matched = LEGS.filter(
      (leg) => leg.role === role && (revision === undefined || leg.revision === revision),
    );
    if (matched.length === 0) {
      const known = LEGS.map((leg) => `${leg.role}@${leg.revision}`).join(", ");
      throw new Error(`unknown leg ${JSON.stringify(name)} in CONFORMANCE_LEGS (known: ${known})`);
    }
    for (const leg of matched) if (!chosen.includes(leg)) chosen.push(leg);
  }
  return chosen;
}

/** Runs one leg; its output goes to `<out>.log`. Resolves with the runner's last line. */
function runLeg(args: string[], env: NodeJS.ProcessEnv, out: string): Promise<string> {
  return new Promise((resolveLeg, reject) => {
    const log = createWriteStream(`${out}.log`);
    const child = spawn("bash", [runner, ...args], {
      cwd: root,
      env: { ...process.env, ...env, CONFORMANCE_OUT: out },
    });
    let last = "";
    let pending = "";
    const onData = (chunk: Buffer) => {
      log.write(chunk);
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("conformance ")) last = line;
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => log.write(chunk));
    child.once("error", reject);
    child.once("close", () => {
      log.end();
      if (pending.startsWith("conformance ")) last = pending;
      resolveLeg(last || `conformance leg failed to report (see ${out}.log)`);
    });
  });
}

function readOutcomes(out: string): ScenarioOutcome[] | undefined {
  const file = join(out, "summary.json");
  if (!existsSync(file)) return undefined;
  const summary = JSON.parse(readFileSync(file, "utf8")) as { scenarios: ScenarioOutcome[] };
  return summary.scenarios;
}

/** Runs `role`'s leg at `revision` into `out` (the whole set, or `scenarios` alone); its last line. */
async function runRole(
  role: Role,
  revision: string,
  out: string,
  scenarios?: readonly string[],
): Promise<string> {
  const subset = scenarios === undefined ? {} : { CONFORMANCE_SCENARIOS: scenarios.join(" ") };
  if (role === "server") {
    const port = await freePort();
    return runLeg(
      ["server", `http://127.0.0.1:${port}/mcp`, revision],
      {
        ...subset,
        CONFORMANCE_SERVER_CMD: `PORT=${port} exec node ${JSON.stringify(join(root, "dist-conformance/server.js"))}`,
      },
      out,
    );
  }
  return runLeg(
    ["client", `node ${join(root, "dist-conformance/client.js")}`, revision],
    { ...subset, CONFORMANCE_MODE: "sequential" },
    out,
  );
}

async function main(): Promise<number> {
  const started = Date.now();
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const results =
    process.env.CONFORMANCE_RESULTS ?? join(homedir(), ".cache/mcp-conformance/results", `tsmcp-${stamp}`);
  mkdirSync(results, { recursive: true });
  const legs = selectLegs(process.env.CONFORMANCE_LEGS);
  const expected = parseExpectedFailures(
    readFileSync(join(root, "test/conformance/expected-failures.yaml"), "utf8"),
  );

  say("conformance: building the fixtures");
  const build = spawnSync("npm", ["run", "--silent", "conformance:build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) {
    say("conformance: the fixture build failed");
    return 1;
  }

  let ok = true;
  for (const leg of legs) {
    const { role, revision } = leg;
    const out = join(results, `${role}-${revision}`);
    say(await runRole(role, revision, out));
    const outcomes = readOutcomes(out);
    const extensionOut = `${out}-extensions`;
    await runRole(role, revision, extensionOut, EXTENSION_SCENARIOS[role]);
    const extensionOutcomes = readOutcomes(extensionOut);
    if (extensionOutcomes !== undefined) {
      const measured = requireRealChecks(extensionOutcomes);
      const passed = measured.filter((o) => o.status === "PASSED").length;
      say(
        `  extension scenarios (${role} ${revision}): ${passed} of ${measured.length} passed with real checks`,
      );
    }
    if (outcomes === undefined || extensionOutcomes === undefined) {
      say(`  no summary.json: see ${outcomes === undefined ? out : extensionOut}.log`);
      ok = false;
      continue;
    }
    outcomes.push(...requireRealChecks(extensionOutcomes));
    const verdict = judge(leg, outcomes, expected);
    for (const o of verdict.unexpectedFailures) {
      say(
        `  UNEXPECTED ${o.status === "FAILED" ? "FAILURE" : "NOT MEASURED"}: ${o.scenario}${o.scored ? "" : " (not scored)"}`,
      );
    }
    for (const o of verdict.stalePasses) {
      say(
        `  NOW PASSES: ${o.scenario} — remove it from the ${role}@${revision} section of test/conformance/expected-failures.yaml`,
      );
    }
    for (const e of verdict.unknownEntries) {
      say(`  NOT RUN: ${e.scenario} is on the ${role}@${revision} list but the run has no such scenario`);
    }
    const listed = entriesOf(leg, expected).length;
    say(
      `  ${verdict.ok ? "as expected" : "NOT as expected"} (${listed} known failures listed); details: ${out}.log`,
    );
    ok &&= verdict.ok;
  }
  say(
    `conformance: ${ok ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s; results ${results}`,
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
