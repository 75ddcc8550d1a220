/**
 * A parked call resumed by another process. The host calls the provisioning server's `provision`
 * tool while nobody is there to say which region: its elicitation callback throws
 * `InputUnavailableError`, and with the `park` call option the call is saved in a
 * `FilePendingCallStore` (one 0600 file per ticket) and rejects with `CallParkedError`, whose
 * `ticket` is all a later process needs. A second process — after a deploy, an hour later — opens
 * the same directory, claims the ticket (once: a second resume is refused) and finishes the call
 * with the user's answer.
 *
 * Run it: `npm run example -- parked-call` (serves the provisioning server on a loopback port,
 * parks a call, then resumes it in a child process and prints what each step printed);
 * `npm run example -- parked-call resume <url> <directory> <ticket> <region>` is the second process.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CallParkedError, Client, InputUnavailableError, ParkedCallRefusedError } from "tsmcp/client";
import { FilePendingCallStore, serve } from "tsmcp/node";
import { createProvisioningServer } from "./mcpserver-provisioning.js";

/**
 * Calls `provision` at `url` with nobody to answer, parked in `directory`; resolves with the ticket.
 *
 * @throws Error when the call was not parked (the server asked nothing).
 */
export async function parkProvision(url: URL, directory: string, name: string): Promise<string> {
  const client = await Client.connect(url, {
    elicitationCallback: () => {
      throw new InputUnavailableError("nobody is at the keyboard");
    },
  });
  try {
    await client.callTool(
      "provision",
      { name },
      {
        park: { store: new FilePendingCallStore({ directory }), target: url.href, ttlMs: 60 * 60 * 1000 },
      },
    );
  } catch (error) {
    if (error instanceof CallParkedError) return error.ticket;
    throw error;
  } finally {
    await client.close();
  }
  throw new Error("the call completed without a question: nothing was parked");
}

/**
 * Resumes the call parked under `ticket` in `directory` on the server at `url` (the one it was
 * made to; the parked call's `target` names it too), answering its region question with `region`;
 * resolves with the tool's text.
 *
 * @throws ParkedCallRefusedError when the ticket is unknown, was resumed before, or expired.
 */
export async function resumeProvision(
  url: URL,
  directory: string,
  ticket: string,
  region: string,
): Promise<string> {
  const store = new FilePendingCallStore({ directory });
  const client = await Client.connect(url);
  try {
    const { result } = await client.resume(store, ticket, {
      inputResponses: { region: { action: "accept", content: { region } } },
    });
    if (!("content" in result) || !Array.isArray(result.content)) return JSON.stringify(result);
    return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  } finally {
    await client.close();
  }
}

/** Runs `npm run example -- parked-call resume <url> <directory> <ticket> <region>` in a child process. */
function resumeInChild(url: URL, directory: string, ticket: string, region: string): Promise<string> {
  const runner = fileURLToPath(new URL("./run.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--import", "tsx", runner, "parked-call", "resume", url.href, directory, ticket, region],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(out.trim())
        : reject(new Error(`the resuming process exited with ${code}: ${out}`)),
    );
  });
}

/** With `resume <url> <directory> <ticket> <region>`, resumes; without, shows the whole story. */
export async function main(args: string[] = []): Promise<void> {
  if (args[0] === "resume") {
    const [, url, directory, ticket, region] = args;
    if (url === undefined || directory === undefined || ticket === undefined || region === undefined) {
      throw new Error("usage: parked-call resume <url> <directory> <ticket> <region>");
    }
    try {
      console.log(await resumeProvision(new URL(url), directory, ticket, region));
    } catch (error) {
      if (!(error instanceof ParkedCallRefusedError)) throw error;
      console.error(`${error.name} (${error.reason}): ${error.message}`);
      process.exitCode = 1;
    }
    return;
  }
  const mcp = createProvisioningServer();
  const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
  const directory = join(await mkdtemp(join(tmpdir(), "tsmcp-parked-example-")), "parked");
  try {
    const ticket = await parkProvision(handle.url, directory, "orders");
    console.log(`parked: ${ticket}`);
    console.log(`resumed by process 2: ${await resumeInChild(handle.url, directory, ticket, "eu-west-1")}`);
    await resumeInChild(handle.url, directory, ticket, "eu-west-1").then(
      () => console.log("resuming it again: not refused (a bug)"),
      () => console.log("resuming it again: refused"),
    );
  } finally {
    await handle.close();
    await mcp.close();
    await rm(join(directory, ".."), { recursive: true, force: true });
  }
}
