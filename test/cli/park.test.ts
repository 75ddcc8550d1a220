/**
 * Parked calls at the command, against the provisioning example served by
 * `npm run example -- mcpserver-provisioning` over HTTP: `call --park` prints a ticket and exits 0,
 * `resume <ticket> --answer ...` in a new process prints the result, a second resume is refused,
 * and `parked` lists the ticket only while it waits.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it, onTestFinished } from "vitest";
import { ROOT, tsmcp } from "./run-cli.js";

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `npm run example -- mcpserver-provisioning` on `port`; resolves its URL once it listens. */
async function provisioningOverNpm(): Promise<string> {
  const port = await freePort();
  const child: ChildProcess = spawn("npm", ["run", "-s", "example", "--", "mcpserver-provisioning"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  onTestFinished(() => {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return await new Promise<string>((resolve, reject) => {
    lines.on("line", (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the example exited with ${code}`)));
  });
}

describe("tsmcp call --park, resume and parked", () => {
  it("parks the provisioning call, resumes it once in a new process, and refuses it again", async () => {
    const url = await provisioningOverNpm();
    const env = { TSMCP_STATE_DIR: mkdtempSync(join(tmpdir(), "tsmcp-park-")) };

    const parked = await tsmcp(["call", url, "provision", "name=orders", "--park"], env);
    expect(parked.code).toBe(0);
    const ticket = parked.stdout.trimEnd().split("\n").at(-1) as string;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(parked.stderr).toContain("region: Which region should the database live in?");
    expect(parked.stderr).toContain(`tsmcp resume ${ticket} --answer region=<json>`);

    const directory = join(env.TSMCP_STATE_DIR, "parked");
    expect(statSync(join(directory, `${ticket}.json`)).mode & 0o777).toBe(0o600);

    const listed = await tsmcp(["parked"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${ticket}  tools/call provision on ${url}`);

    const resumed = await tsmcp(["resume", ticket, "--answer", 'region={"region":"eu-west-1"}'], env);
    expect(resumed).toMatchObject({ code: 0, stdout: "Provisioned orders in eu-west-1\n" });

    const again = await tsmcp(["resume", ticket, "--answer", 'region={"region":"eu-west-1"}'], env);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain(`Cannot resume parked call ${ticket}: it was already resumed`);

    expect((await tsmcp(["parked"], env)).stdout).toBe("No parked calls.\n");
    expect(readdirSync(directory)).toEqual([`${ticket}.claimed`]);
  });

  it("refuses a ticket nobody parked, and prints the parked call as JSON with --json", async () => {
    const env = { TSMCP_STATE_DIR: mkdtempSync(join(tmpdir(), "tsmcp-park-")) };
    const unknown = await tsmcp(["resume", "AAAAAAAAAAAAAAAAAAAAAA"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "Cannot resume parked call AAAAAAAAAAAAAAAAAAAAAA: no parked call has this ticket",
    );
    const url = await provisioningOverNpm();
    const parked = await tsmcp(["call", url, "provision", "name=orders", "--park", "--json"], env);
    expect(parked.code).toBe(0);
    const printed = JSON.parse(parked.stdout) as { parked: { ticket: string; inputRequests: object } };
    expect(Object.keys(printed.parked.inputRequests)).toEqual(["region"]);
    const listed = JSON.parse((await tsmcp(["parked", "--json"], env)).stdout) as {
      parked: { ticket: string }[];
    };
    expect(listed.parked.map((call) => call.ticket)).toEqual([printed.parked.ticket]);
  });
});
