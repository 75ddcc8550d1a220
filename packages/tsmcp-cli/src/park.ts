/**
 * Parked calls at the command: `tsmcp call ... --park` saves a call whose questions have no
 * answer yet and prints its ticket; `tsmcp resume <ticket>` goes on with it in a new process (the
 * same server, its questions answered with `--answer` or at the terminal); `tsmcp parked` lists
 * what waits. The tickets live in `parked/` under the state directory, one 0600 file each.
 * Spec: basic/patterns/mrtr.
 */
import { join } from "node:path";
import { CallParkedError, type Client, ParkedCallRefusedError, type ParkOptions } from "tsmcp/client";
import { FilePendingCallStore } from "tsmcp/node";
import type { ParkedCall } from "tsmcp/state";
import type { InputResponses } from "tsmcp/types";
import type { ScriptedAnswers, UnansweredInputError } from "./answers.js";
import { type Output, print, printJson } from "./commands.js";
import { note } from "./connect.js";
import { renderPrompt, renderResource, renderToolResult } from "./render.js";
import { EXIT_FAILURE, EXIT_OK } from "./target.js";
import { stateDir } from "./task-memory.js";

/** The store of the command's parked calls: `parked/` in the state directory. */
export function parkedStore(env: NodeJS.ProcessEnv = process.env): FilePendingCallStore {
  return new FilePendingCallStore({ directory: join(stateDir(env), "parked") });
}

/** The `park` option of a call made by the command: the target, kept to resume it. */
export function parkOption(target: string, command: string): ParkOptions {
  return { store: parkedStore(), target, meta: { command } };
}

/** One line per question of a parked call: its key and what it asks. */
function describeQuestions(call: ParkedCall): string[] {
  return Object.entries(call.inputRequests).map(([key, request]) => {
    const params = request.params as { message?: unknown } | undefined;
    const asks =
      request.method === "elicitation/create" && typeof params?.message === "string"
        ? params.message
        : request.method;
    return `  ${key}: ${asks}`;
  });
}

/**
 * Reports a parked call: what it waits for and how to resume it on stderr, the ticket alone on
 * the last line of stdout (with `--json`, `{ "parked": { ticket, inputRequests, deadline } }`).
 * The questions nothing answered are not failures then.
 */
export function reportParked(error: CallParkedError, output: Output): number {
  (output.unanswered as UnansweredInputError[]).splice(0);
  const { call } = error;
  note(`parked until ${new Date(call.deadlineMs).toISOString()}; it waits for:`);
  for (const line of describeQuestions(call)) note(line);
  const [key] = Object.keys(call.inputRequests);
  note(`resume it with: tsmcp resume ${call.ticket} --answer ${key ?? "<key>"}=<json>`);
  if (output.json) {
    printJson({
      parked: {
        ticket: call.ticket,
        inputRequests: call.inputRequests,
        deadline: new Date(call.deadlineMs).toISOString(),
      },
    });
  } else process.stdout.write(`${call.ticket}\n`);
  return EXIT_OK;
}

/** Runs a call that may be parked: its own exit code, or the parked report's. */
export async function parkable(output: Output, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CallParkedError) return reportParked(error, output);
    throw error;
  }
}

/**
 * The parked call under `ticket`, to resume.
 *
 * @throws ParkedCallRefusedError when it is not waiting (unknown, resumed before, expired).
 */
export async function waitingCall(ticket: string): Promise<ParkedCall> {
  const store = parkedStore();
  let call: ParkedCall | undefined;
  try {
    call = await store.get(ticket);
  } catch {
    throw new ParkedCallRefusedError("unknown", ticket);
  }
  if (call !== undefined) {
    if (call.deadlineMs <= Date.now()) throw new ParkedCallRefusedError("expired", ticket);
    return call;
  }
  const claim = await store.claim(ticket, Date.now());
  throw new ParkedCallRefusedError(claim.status === "claimed" ? "resumed" : claim.status, ticket);
}

/** The answers the scripted options give to a parked call's questions, by key. */
function scriptedResponses(call: ParkedCall, scripted: ScriptedAnswers): InputResponses {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(call.inputRequests)) {
    if (request.method !== "elicitation/create") continue;
    if (scripted.declines.has(key)) responses[key] = { action: "decline" };
    else {
      const content = scripted.answers.get(key);
      if (content !== undefined) responses[key] = { action: "accept", content };
    }
  }
  return responses as InputResponses;
}

/**
 * `tsmcp resume <ticket>`: resumes the parked call with the scripted answers (the rest asked by the
 * server again and answered as any call's questions are) and prints its result.
 */
export async function resume(
  client: Client,
  call: ParkedCall,
  scripted: ScriptedAnswers,
  output: Output,
): Promise<number> {
  const resumed = await client.resume(parkedStore(), call.ticket, {
    inputResponses: scriptedResponses(call, scripted),
    park: parkOption(call.target ?? "", "resume"),
  });
  if (output.json) {
    printJson(resumed.result);
    return resumed.method === "tools/call" && resumed.result.isError === true ? EXIT_FAILURE : EXIT_OK;
  }
  switch (resumed.method) {
    case "tools/call":
      print(renderToolResult(resumed.result));
      return resumed.result.isError === true ? EXIT_FAILURE : EXIT_OK;
    case "prompts/get":
      print(renderPrompt(resumed.result));
      return EXIT_OK;
    case "resources/read":
      print(renderResource(resumed.result));
      return EXIT_OK;
  }
}

/** `tsmcp parked`: the calls that wait, with their questions and deadlines. */
export async function listParked(output: Output): Promise<number> {
  const calls = await parkedStore().list(Date.now());
  if (output.json) {
    printJson({
      parked: calls.map((call) => ({
        ticket: call.ticket,
        target: call.target,
        method: call.method,
        params: call.params,
        inputRequests: call.inputRequests,
        parkedAt: new Date(call.parkedAtMs).toISOString(),
        deadline: new Date(call.deadlineMs).toISOString(),
      })),
    });
    return EXIT_OK;
  }
  if (calls.length === 0) {
    print("No parked calls.");
    return EXIT_OK;
  }
  for (const call of calls) {
    const name = String(call.params.name ?? call.params.uri ?? "");
    print(
      `${call.ticket}  ${call.method} ${name} on ${call.target ?? "?"} (until ${new Date(call.deadlineMs).toISOString()})`,
    );
    print(describeQuestions(call).join("\n"));
  }
  return EXIT_OK;
}
