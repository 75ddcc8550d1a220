/**
 * Parked calls on disk: one JSON file per ticket, readable by this user only (files 0600 in a
 * directory made 0700), so a call parked by one process is resumed by another, after a restart
 * too. A claim renames `<ticket>.json` to `<ticket>.claimed` — one atomic rename, so of two
 * processes racing for a ticket exactly one wins — and the renamed file stays as the tombstone
 * until the call's deadline. Spec: basic/patterns/mrtr.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type ClaimResult,
  checkTicket,
  isParkedCall,
  type ParkedCall,
  type PendingCallStore,
} from "../state/pending-calls.js";

/** Options of {@link FilePendingCallStore}. */
export interface FilePendingCallStoreOptions {
  /** The directory the tickets live in; made (mode 0700) at the first `put`. */
  readonly directory: string;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

async function readCall(path: string): Promise<ParkedCall | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isParkedCall(parsed) ? parsed : undefined;
}

/**
 * A {@link PendingCallStore} in a directory of this machine (the `tsmcp` command keeps its parked
 * calls in one). Tickets are checked before they become file names.
 *
 * @throws TypeError at construction for a missing `directory`.
 */
export class FilePendingCallStore implements PendingCallStore {
  /** The directory the tickets live in. */
  readonly directory: string;

  constructor(options: FilePendingCallStoreOptions) {
    if (typeof options?.directory !== "string" || options.directory === "") {
      throw new TypeError("FilePendingCallStore: directory must be a non-empty path");
    }
    this.directory = options.directory;
  }

  #pending(ticket: string): string {
    return join(this.directory, `${ticket}.json`);
  }

  #claimed(ticket: string): string {
    return join(this.directory, `${ticket}.claimed`);
  }

  async put(call: ParkedCall): Promise<void> {
    checkTicket(call.ticket);
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    // Written aside, then renamed into place: a reader never sees half a file.
    const partial = join(this.directory, `.${call.ticket}.${randomBytes(6).toString("hex")}.tmp`);
    await writeFile(partial, JSON.stringify(call), { mode: 0o600, flag: "wx" });
    await rename(partial, this.#pending(call.ticket));
  }

  async get(ticket: string): Promise<ParkedCall | undefined> {
    checkTicket(ticket);
    return await readCall(this.#pending(ticket));
  }

  async claim(ticket: string, nowMs: number): Promise<ClaimResult> {
    checkTicket(ticket);
    try {
      await rename(this.#pending(ticket), this.#claimed(ticket));
    } catch (error) {
      if (!isMissing(error)) throw error;
      return await this.#afterClaim(ticket, nowMs);
    }
    const call = await readCall(this.#claimed(ticket));
    if (call === undefined) return { status: "unknown" };
    if (call.deadlineMs <= nowMs) {
      await unlink(this.#claimed(ticket)).catch(() => {});
      return { status: "expired", call };
    }
    return { status: "claimed", call };
  }

  /** A ticket that is not pending: resumed (its tombstone lives), or unknown. */
  async #afterClaim(ticket: string, nowMs: number): Promise<ClaimResult> {
    const tombstone = await readCall(this.#claimed(ticket));
    if (tombstone === undefined) return { status: "unknown" };
    if (tombstone.deadlineMs <= nowMs) {
      await unlink(this.#claimed(ticket)).catch(() => {});
      return { status: "unknown" };
    }
    const resumedAtMs = (await stat(this.#claimed(ticket)).catch(() => undefined))?.ctimeMs ?? nowMs;
    return { status: "resumed", resumedAtMs: Math.floor(resumedAtMs) };
  }

  async list(nowMs: number): Promise<ParkedCall[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const calls: ParkedCall[] = [];
    for (const name of names) {
      const path = join(this.directory, name);
      if (!name.endsWith(".json") && !name.endsWith(".claimed")) continue;
      const call = await readCall(path);
      if (call === undefined) continue;
      // Past their deadline, tickets and tombstones alike are only clutter.
      if (call.deadlineMs <= nowMs) await unlink(path).catch(() => {});
      else if (name.endsWith(".json")) calls.push(call);
    }
    return calls.sort((a, b) => a.parkedAtMs - b.parkedAtMs);
  }

  async delete(ticket: string): Promise<boolean> {
    checkTicket(ticket);
    try {
      await unlink(this.#pending(ticket));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}
