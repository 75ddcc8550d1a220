/**
 * The Redis `TaskStore`: one hash per task expiring at its `createdAtMs + ttlMs`, and per owner
 * sorted sets of task ids for `list` and for the bound on running tasks, every operation one Lua
 * script (see task-scripts.ts for the layout).
 */
import {
  isTerminalTaskStatus,
  type StateUnavailableError,
  type TaskChange,
  type TaskCreateOutcome,
  type TaskExpectation,
  type TaskLease,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
} from "tsmcp/state";
import { type RedisClientLike, runCommand } from "./client.js";
import {
  checkClient,
  keyPart,
  type RedisStoreOptions,
  type StoreSettings,
  storeSettings,
} from "./options.js";
import { ADD_RESPONSES, CREATE, GET, LIST, TAKE_RESPONSES, UPDATE } from "./task-scripts.js";

/** Options of a {@link RedisTaskStore}. */
export type RedisTaskStoreOptions = RedisStoreOptions;

/** The prefix of the hash field of each outstanding input request. */
const REQUEST = "in:";
/** The prefix of the hash field of each answer not yet taken. */
const RESPONSE = "ans:";

/**
 * A `TaskStore` (tasks of the tasks extension and of the 2025-11-25 revision) on Redis, shared by
 * every replica connected to the same Redis (Redis 6.2 or later, standalone). Task `taskId` is
 * the hash `{keyPrefix}task:{taskId}`: one JSON field per fact of its `TaskRecord`, one field per
 * outstanding input request and per answer not yet taken, so that the opaque payloads (request,
 * result, inputs) are stored as the caller's JSON and never re-encoded. Its key expires
 * (`PEXPIREAT`) at `createdAtMs + ttlMs` on Redis's clock, and every operation also treats it as
 * gone from that millisecond on. The owner's tasks are the sorted set `{keyPrefix}tasks:{owner}`
 * (scored by `createdAtMs`, for `list`), beside `{keyPrefix}tasks:{owner}:exp` (every task, scored
 * by expiry) and `{keyPrefix}tasks:{owner}:active` (the non-terminal ones, scored by the earlier
 * of their expiry and their lease's `expiresAtMs`); the
 * scripts drop expired and vanished ids from them, and the sets themselves expire with the
 * owner's last task.
 *
 * Every operation is one Lua script, so it is atomic across replicas: `create` counts the owner's
 * live non-terminal tasks whose lease, if any, has not lapsed on Redis's clock and inserts in one
 * step (of concurrent creates at the bound one wins),
 * `update` checks terminal status and its `expect` and applies the change in one step (so
 * concurrent updates are linearisable and exactly one terminal status wins),
 * `addInputResponses` moves only outstanding keys, and `takeInputResponses` hands each answer out
 * once. `list` pages newest first with cursors naming the last task's place (its `createdAtMs`
 * and id), so a page goes on correctly after that task expired; a cursor this store did not hand
 * out gives an empty page.
 *
 * There is no bound on the total number of tasks but Redis's memory: with `maxmemory` set and the
 * `noeviction` policy (never an evicting policy, which would drop live tasks), a `create` that
 * Redis refuses for memory answers `"store_full"`. Every method rejects with
 * `StateUnavailableError` (from `tsmcp/state`) when Redis cannot be reached: at once while the
 * connection is down, or after `commandTimeoutMs`.
 *
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md) and
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 *
 * @throws TypeError for a client that is not a node-redis client or options of the wrong type;
 *   RangeError for a timeout below 1.
 */
export class RedisTaskStore implements TaskStore {
  readonly #client: RedisClientLike;
  readonly #settings: StoreSettings;

  /**
   * @param client a node-redis client (connected by the caller) whose commands the store sends.
   * @param options key prefix and command timeout.
   */
  constructor(client: RedisClientLike, options: RedisTaskStoreOptions = {}) {
    checkClient("RedisTaskStore", client);
    this.#client = client;
    this.#settings = storeSettings("RedisTaskStore", options);
  }

  /** The Redis key of task `taskId` (a hash). */
  keyOf(taskId: string): string {
    return `${this.#settings.keyPrefix}task:${keyPart(taskId)}`;
  }

  /** The Redis key of the sorted set of `owner`'s task ids (the other two add `:exp` and `:active`). */
  ownerKeyOf(owner: string): string {
    return `${this.#settings.keyPrefix}tasks:${keyPart(owner)}`;
  }

  /**
   * @throws (rejects) TypeError for a record without a string `taskId` and `owner`, a finite
   *   `createdAtMs` and a `ttlMs` that is `null` or a number from 0, for a `lease` without a string
   *   `holder` and a finite `expiresAtMs`, a `maxActivePerOwner` that is
   *   not a number, or a `taskId` already in use; `StateUnavailableError` when Redis cannot be reached.
   */
  async create(
    record: TaskRecord,
    options: { readonly maxActivePerOwner: number },
  ): Promise<TaskCreateOutcome> {
    checkRecord(record);
    if (typeof options?.maxActivePerOwner !== "number" || Number.isNaN(options.maxActivePerOwner)) {
      throw new TypeError("RedisTaskStore.create: maxActivePerOwner must be a number");
    }
    const { inputRequests, inputResponses, lease, ...facts } = record;
    const fields: string[] = [];
    for (const [name, value] of Object.entries(facts))
      if (value !== undefined) fields.push(name, json(value));
    if (lease !== undefined) fields.push("lease", leaseJson(lease));
    for (const [key, value] of Object.entries(inputRequests ?? {}))
      fields.push(`${REQUEST}${key}`, json(value));
    for (const [key, value] of Object.entries(inputResponses ?? {}))
      fields.push(`${RESPONSE}${key}`, json(value));
    const expiry = record.ttlMs === null ? "" : String(record.createdAtMs + record.ttlMs);
    const base = this.ownerKeyOf(record.owner);
    let outcome: string;
    try {
      outcome = await this.#eval<string>(
        CREATE,
        [this.keyOf(record.taskId), base, `${base}:exp`, `${base}:active`],
        [
          keyPart(record.taskId),
          String(record.createdAtMs),
          expiry,
          String(options.maxActivePerOwner),
          isTerminalTaskStatus(record.status) ? "1" : "",
          lease === undefined ? "" : String(lease.expiresAtMs),
          ...fields,
        ],
      );
    } catch (error) {
      if (outOfMemory(error)) return "store_full";
      throw error;
    }
    if (outcome === "exists") throw new TypeError("RedisTaskStore.create: taskId already in use");
    return outcome === "owner_limit" ? "owner_limit" : "created";
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return recordOf(await this.#eval<string[] | null>(GET, [this.keyOf(taskId)], []));
  }

  async update(
    taskId: string,
    change: TaskChange,
    expect?: TaskExpectation,
  ): Promise<TaskRecord | undefined> {
    const { addInputRequests, removeInputRequests, ttlMs, ...facts } = change;
    const cleared: string[] = [];
    const set: string[] = [];
    for (const [name, value] of Object.entries(facts)) {
      if (value === undefined) continue;
      if (value === null) cleared.push(name);
      else set.push(name, name === "lease" ? leaseJson(value as TaskLease) : json(value));
    }
    // ttlMs is never absent from a record: null sets "no expiry".
    if (ttlMs !== undefined) set.push("ttlMs", json(ttlMs));
    const removed = new Set(removeInputRequests ?? []);
    for (const [key, value] of Object.entries(addInputRequests ?? {})) {
      if (!removed.has(key)) set.push(`${REQUEST}${key}`, json(value));
    }
    for (const key of removed) cleared.push(`${REQUEST}${key}`);
    const reply = await this.#eval<string[] | null>(
      UPDATE,
      [this.keyOf(taskId)],
      [
        keyPart(taskId),
        expect?.owner === undefined ? "" : json(expect.owner),
        expect?.leaseHolder === undefined ? "" : "1",
        expect?.leaseHolder ?? "",
        expect?.lease === undefined ? "" : leaseJson(expect.lease),
        change.status !== undefined && isTerminalTaskStatus(change.status) ? "1" : "",
        ttlMs === undefined ? "" : ttlMs === null ? "null" : String(ttlMs),
        String(cleared.length),
        ...cleared,
        ...set,
      ],
    );
    return recordOf(reply);
  }

  async addInputResponses(
    taskId: string,
    owner: string,
    responses: Readonly<Record<string, unknown>>,
    nowMs: number,
  ): Promise<TaskRecord | undefined> {
    const pairs = Object.entries(responses).flatMap(([key, value]) => [key, json(value)]);
    const reply = await this.#eval<string[] | null>(
      ADD_RESPONSES,
      [this.keyOf(taskId)],
      [json(owner), json(nowMs), ...pairs],
    );
    return recordOf(reply);
  }

  async takeInputResponses(taskId: string, holder: string): Promise<Readonly<Record<string, unknown>>> {
    const pairs = await this.#eval<string[]>(TAKE_RESPONSES, [this.keyOf(taskId)], [holder]);
    const taken: [string, unknown][] = [];
    for (let i = 0; i + 1 < pairs.length; i += 2)
      taken.push([pairs[i] as string, JSON.parse(pairs[i + 1] as string)]);
    // Built as own properties whatever the keys are (a key `__proto__` included).
    return Object.fromEntries(taken);
  }

  async list(
    owner: string,
    options: { readonly cursor?: string | undefined; readonly limit: number },
  ): Promise<TaskPage> {
    const after = options.cursor === undefined ? undefined : placeOf(options.cursor);
    if (after === null) return { tasks: [] };
    const base = this.ownerKeyOf(owner);
    const reply = await this.#eval<[number, string, string, ...string[][]]>(
      LIST,
      [base, `${base}:exp`, `${base}:active`],
      [`${this.#settings.keyPrefix}task:`, String(options.limit), after?.[0] ?? "", after?.[1] ?? ""],
    );
    const [more, score, member, ...fields] = reply;
    const tasks = fields.map((task) => recordOf(task) as TaskRecord);
    if (more !== 1 || member === "") return { tasks };
    return { tasks, nextCursor: Buffer.from(JSON.stringify([score, member])).toString("base64url") };
  }

  #eval<T>(script: string, keys: string[], args: string[]): Promise<T> {
    return runCommand<T>(this.#client, this.#settings, [
      "EVAL",
      script,
      String(keys.length),
      ...keys,
      ...args,
    ]);
  }
}

/** `value` as the JSON text a field holds (`undefined` inside a map is kept as `null`). */
function json(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** A lease as the one JSON text the scripts compare exactly. */
function leaseJson(lease: TaskLease): string {
  return JSON.stringify({ holder: lease.holder, expiresAtMs: lease.expiresAtMs });
}

/** The record a hash's fields make, or undefined for none. */
function recordOf(fields: readonly string[] | null | undefined): TaskRecord | undefined {
  if (!Array.isArray(fields) || fields.length === 0) return undefined;
  const record: Record<string, unknown> = {};
  const requests: [string, unknown][] = [];
  const responses: [string, unknown][] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i] as string;
    const value = fields[i + 1] as string;
    if (name.startsWith(".")) continue;
    if (name.startsWith(REQUEST)) requests.push([name.slice(REQUEST.length), JSON.parse(value)]);
    else if (name.startsWith(RESPONSE)) responses.push([name.slice(RESPONSE.length), JSON.parse(value)]);
    else record[name] = JSON.parse(value);
  }
  // Built as own properties whatever the keys are (a key `__proto__` included).
  if (requests.length > 0) record.inputRequests = Object.fromEntries(requests);
  if (responses.length > 0) record.inputResponses = Object.fromEntries(responses);
  return record as unknown as TaskRecord;
}

/** The place (score, member) a cursor of {@link RedisTaskStore.list} names, or null for none of ours. */
function placeOf(cursor: string): [string, string] | null {
  try {
    const place: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(place) &&
      place.length === 2 &&
      typeof place[0] === "string" &&
      Number.isFinite(Number(place[0])) &&
      typeof place[1] === "string" &&
      place[1] !== ""
    ) {
      return [place[0], place[1]];
    }
  } catch {
    // Not base64url JSON: none of ours.
  }
  return null;
}

/** Throws unless `record` has what the scripts rely on. */
function checkRecord(record: TaskRecord): void {
  const ok =
    typeof record === "object" &&
    record !== null &&
    typeof record.taskId === "string" &&
    record.taskId !== "" &&
    typeof record.owner === "string" &&
    typeof record.createdAtMs === "number" &&
    Number.isFinite(record.createdAtMs) &&
    (record.ttlMs === null ||
      (typeof record.ttlMs === "number" && Number.isFinite(record.ttlMs) && record.ttlMs >= 0)) &&
    (record.lease === undefined ||
      (typeof record.lease === "object" &&
        record.lease !== null &&
        typeof record.lease.holder === "string" &&
        typeof record.lease.expiresAtMs === "number" &&
        Number.isFinite(record.lease.expiresAtMs)));
  if (!ok) {
    throw new TypeError(
      "RedisTaskStore.create: a record needs a non-empty string taskId, a string owner, a finite createdAtMs, a ttlMs of null or a number from 0, and a lease, if any, with a string holder and a finite expiresAtMs",
    );
  }
}

/** True when Redis refused a write for memory (`maxmemory` reached under `noeviction`). */
function outOfMemory(error: unknown): boolean {
  const cause = (error as StateUnavailableError | undefined)?.cause;
  return cause instanceof Error && /\bOOM\b/.test(cause.message);
}
