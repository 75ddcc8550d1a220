/**
 * The file store: the shared contract, private files, and two real processes racing to claim one
 * ticket (one wins, the other is told it was resumed).
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  parkedCall,
  pendingCallStoreContract,
} from "../../../../test/helpers/pending-call-store-contract.js";
import { FilePendingCallStore } from "./file-pending-calls.js";

const directories: string[] = [];
async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "tsmcp-parked-"));
  directories.push(directory);
  return join(directory, "parked");
}
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

pendingCallStoreContract(
  "FilePendingCallStore",
  async () => new FilePendingCallStore({ directory: await freshDirectory() }),
);

/** Claims `ticket` in a separate Node process; resolves with the claim's status. */
function claimInProcess(directory: string, ticket: string): Promise<string> {
  const module = fileURLToPath(new URL("./file-pending-calls.ts", import.meta.url));
  const script = `
    const { FilePendingCallStore } = await import(${JSON.stringify(module)});
    const store = new FilePendingCallStore({ directory: ${JSON.stringify(directory)} });
    const result = await store.claim(${JSON.stringify(ticket)}, Date.now());
    process.stdout.write(result.status);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`claimer exited ${code}`))));
  });
}

describe("FilePendingCallStore on disk", () => {
  it("keeps each ticket in a 0600 file in a 0700 directory", async () => {
    const directory = await freshDirectory();
    const store = new FilePendingCallStore({ directory });
    const call = parkedCall();
    await store.put(call);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    const names = await readdir(directory);
    expect(names).toEqual([`${call.ticket}.json`]);
    expect((await stat(join(directory, names[0] as string))).mode & 0o777).toBe(0o600);
  });

  it("lets one of two processes racing for a ticket claim it", async () => {
    const directory = await freshDirectory();
    const store = new FilePendingCallStore({ directory });
    const call = parkedCall();
    await store.put(call);
    const statuses = await Promise.all([
      claimInProcess(directory, call.ticket),
      claimInProcess(directory, call.ticket),
    ]);
    expect(statuses.sort()).toEqual(["claimed", "resumed"]);
  });

  it("refuses a path as a ticket", async () => {
    const store = new FilePendingCallStore({ directory: await freshDirectory() });
    await expect(store.claim("../../../etc/passwd", Date.now())).rejects.toThrow(TypeError);
  });
});
