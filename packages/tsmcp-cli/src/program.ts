/**
 * The `tsmcp` command line on commander: the commands, the global options, and the mapping of
 * every outcome to an exit code (0 done, 1 a tool error or a protocol/transport error, 2 a usage
 * mistake or a question nothing answered).
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { Command, CommanderError, Option } from "commander";
import {
  type Client,
  InputRequiredRoundsExceededError,
  ParkedCallRefusedError,
  RequestTimeoutError,
  UnsupportedInputRequestError,
} from "tsmcp/client";
import { SkillVerificationError } from "tsmcp/skills";
import { AuthorizationRefusedError, TransportError } from "tsmcp/transport";
import { McpError } from "tsmcp/types";
import { AnswerRejectedError, UnansweredInputError } from "./answers.js";
import { MissingArgumentsError } from "./arguments.js";
import { CONFIG_DIR_ENV, forget, SignInRequiredError } from "./auth.js";
import { call, discover, list, type Output, prompt, read } from "./commands.js";
import { connect, type GlobalOptions, note, scripted } from "./connect.js";
import { terminalAsker } from "./form.js";
import { interactive } from "./interactive.js";
import { listParked, parkable, parkOption, resume, waitingCall } from "./park.js";
import { skillsCommand } from "./skills.js";
import { EXIT_FAILURE, EXIT_USAGE, parseTarget, UsageError } from "./target.js";
import { STATE_DIR_ENV } from "./task-memory.js";
import { callAsTask, taskCancel, taskGet, taskList, taskResult } from "./tasks.js";
import { safeJson } from "./terminal.js";

const collect = (value: string, previous: string[]) => [...previous, value];

/** How a failed command is reported: exit code, the stderr line, and the `--json` error object. */
export interface Failure {
  readonly code: number;
  readonly message: string;
  /** `{ code, message, data? }`: a JSON-RPC error's own, else the error's name as the code. */
  readonly error: { code: number | string; message: string; data?: unknown };
}

/** What `--park` does, for every command that takes it. */
const PARK_HELP =
  "when a question has no --answer, park the call instead of failing or asking: print its ticket " +
  "alone on the last line of stdout (resume it with tsmcp resume <ticket>) and exit 0";

/** What a command was doing, and at which server, when it failed. */
export interface FailureContext {
  /** `call provision`, `read notes://1`, `tools`. */
  readonly action: string;
  /** The target as typed: a URL or a command line. */
  readonly server: string;
}

/**
 * The exit code, message and JSON error for an error a command ended with. With `context`, the
 * message starts with what failed and where (`call provision at http://...: `); every message ends
 * with a next step the person can take.
 */
export function failure(
  error: unknown,
  unanswered: readonly UnansweredInputError[] = [],
  context?: FailureContext,
): Failure {
  const found = bareFailure(error, unanswered);
  const next =
    found.next === undefined
      ? ""
      : `; ${found.next(context?.server ?? "<target>", context?.action.split(" ")[0] ?? "")}`;
  const where = context === undefined ? "" : `${context.action} at ${context.server}: `;
  return { code: found.code, message: `${where}${found.message}${next}`, error: found.error };
}

/** A failure before it is put in context; `next` words the next step for a server. */
type BareFailure = Failure & { readonly next?: (server: string, command: string) => string };

/** The next step after a JSON-RPC error, by its code. */
function nextAfter(error: McpError): ((server: string, command: string) => string) | undefined {
  if (asksForRoots(error)) return undefined;
  switch (error.code) {
    case -32601:
      return (server) => `the server does not offer this: tsmcp discover ${server} shows what it does`;
    case -32602:
      return (server, command) =>
        command === "read"
          ? `check the URI: tsmcp resources ${server} and tsmcp templates ${server} list what can be read`
          : command === "prompt"
            ? `check the name and arguments: tsmcp prompts ${server} shows each prompt's signature`
            : `check the name and arguments: tsmcp tools ${server} shows each tool's signature`;
    default:
      return () => "run again with -v to see each round (-vv shows each message)";
  }
}

/** The failure of `error`, with its own next step where it has none in its message. */
function bareFailure(error: unknown, unanswered: readonly UnansweredInputError[]): BareFailure {
  const stop = unanswered[0];
  if (stop !== undefined) return unansweredFailure(stop);
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof UnansweredInputError) return unansweredFailure(cause);
    if (cause instanceof MissingArgumentsError) {
      const data = { tool: cause.tool, missing: cause.missing };
      return {
        code: EXIT_USAGE,
        message: cause.message,
        error: { code: cause.name, message: cause.message, data },
      };
    }
    if (cause instanceof UsageError)
      return {
        code: EXIT_USAGE,
        message: cause.message,
        error: { code: cause.name, message: cause.message },
      };
    if (cause instanceof SignInRequiredError)
      return {
        code: EXIT_FAILURE,
        message: cause.message,
        error: { code: cause.name, message: cause.message },
      };
  }
  if (error instanceof McpError) {
    const next = nextAfter(error);
    return {
      code: EXIT_FAILURE,
      message: `error ${error.code}: ${error.message}${asksForRoots(error) ? ROOTS_HINT : ""}`,
      error: {
        code: error.code,
        message: error.message,
        ...(error.data === undefined ? {} : { data: error.data }),
      },
      ...(next === undefined ? {} : { next }),
    };
  }
  if (error instanceof AuthorizationRefusedError) return refusedFailure(error);
  if (error instanceof ParkedCallRefusedError) {
    const hint = error.reason === "legacy" ? "" : "; tsmcp parked lists the calls that wait";
    const data = { reason: error.reason, ...(error.ticket === undefined ? {} : { ticket: error.ticket }) };
    return {
      code: EXIT_FAILURE,
      message: `${error.message}${hint}`,
      error: { code: error.name, message: error.message, data },
    };
  }
  if (error instanceof SkillVerificationError) {
    const message = `refused: ${error.message}`;
    const data = { reason: error.reason, uri: error.uri, skillUri: error.skillUri };
    return { code: EXIT_FAILURE, message, error: { code: error.name, message: error.message, data } };
  }
  if (error instanceof UnsupportedInputRequestError && error.method === "roots/list") {
    const message = `${error.message}${ROOTS_HINT}`;
    return { code: EXIT_FAILURE, message, error: { code: error.name, message } };
  }
  if (error instanceof InputRequiredRoundsExceededError) {
    const message = `the server kept asking for input for more than ${error.maxRounds} rounds without finishing; answer its questions differently (-v shows each round)`;
    return { code: EXIT_FAILURE, message, error: { code: error.name, message } };
  }
  if (error instanceof RequestTimeoutError) {
    const method = /^(.+) timed out after/.exec(error.message)?.[1] ?? "a request";
    const message = `timed out after ${error.timeoutMs} ms (${method}); raise --timeout`;
    return { code: EXIT_FAILURE, message, error: { code: error.name, message } };
  }
  const name = error instanceof Error ? error.name : "Error";
  const text = error instanceof Error ? error.message : String(error);
  return {
    code: EXIT_FAILURE,
    message: name === "Error" ? text : `${name}: ${text}`,
    error: { code: name, message: text },
    next: nextAfterOther(error),
  };
}

/** The next step after a failure that is not the server's answer: a connection, a process. */
function nextAfterOther(error: unknown): ((server: string) => string) | undefined {
  if (
    error instanceof TransportError &&
    /connection refused|ENOTFOUND|EAI_AGAIN|ECONNRESET/.test(error.message)
  ) {
    return () => "check that the server is running and that the URL is right";
  }
  if (error instanceof Error && /without answering: it is not an MCP server/.test(error.message))
    return undefined;
  return () => "run again with -v to see each round (-vv shows each message)";
}

/**
 * A 401 or 403 the server answered with a challenge: its message names the challenge's `error`
 * and `error_description`, then what to do; the JSON error carries them as `data`.
 */
function refusedFailure(error: AuthorizationRefusedError): Failure {
  const { challenge, httpStatus: status } = error;
  let hint = "";
  if (challenge.error === "invalid_token") {
    hint = "; the token is stale, rotated or revoked: sign in again (tsmcp login <url>) or pass a valid one";
  } else if (challenge.error === "insufficient_scope") {
    hint = `; the token lacks a scope the server needs${challenge.scope === undefined ? "" : ` (${challenge.scope})`}`;
  }
  const data = {
    status,
    ...(challenge.error === undefined ? {} : { error: challenge.error }),
    ...(challenge.errorDescription === undefined ? {} : { error_description: challenge.errorDescription }),
    ...(challenge.scope === undefined ? {} : { scope: challenge.scope }),
  };
  return {
    code: EXIT_FAILURE,
    message: `${error.message}${hint}`,
    error: { code: error.name, message: error.message, data },
  };
}

/** What a failure for want of roots adds: how to offer them. */
const ROOTS_HINT = "; the server asks for roots: offer them with --root <path>";

/** True for the -32021 refusal of a server that needs the roots capability (`data.requiredCapabilities.roots`). */
function asksForRoots(error: McpError): boolean {
  const data = error.data as { requiredCapabilities?: { roots?: unknown } } | undefined;
  return typeof data === "object" && data !== null && data.requiredCapabilities?.roots !== undefined;
}

/** An unanswered or rejected question: exit 2, with the key and what it asks in the JSON error. */
function unansweredFailure(stop: UnansweredInputError): Failure {
  const data: Record<string, unknown> = { key: stop.key, asks: stop.asks };
  if (stop instanceof AnswerRejectedError) data.answer = stop.answer;
  return { code: EXIT_USAGE, message: stop.message, error: { code: stop.name, message: stop.message, data } };
}

/** Where the actions record how the run ended: the exit code and the questions nothing answered. */
interface ExitRecord {
  code: number;
  unanswered: UnansweredInputError[];
  /** What the command was doing and where, once it knows. */
  context?: FailureContext;
}

/** Builds the program; each action stores its exit code in `exit.code`. */
export function buildProgram(exit: ExitRecord): Command {
  const program = addGlobalOptions(createRootCommand());
  addDiscoverCommand(program, exit);
  addListCommands(program, exit);
  addCallCommand(program, exit);
  addTaskCommands(program, exit);
  addPromptCommand(program, exit);
  addReadCommand(program, exit);
  addResumeCommand(program, exit);
  addParkedCommand(program, exit);
  addSkillsCommand(program, exit);
  addLoginCommand(program, exit);
  addLogoutCommand(program);
  addInteractiveCommand(program, exit);
  return program;
}

/** What `tsmcp --help` ends with: the interactive session, and the exit codes. */
export const ROOT_HELP_AFTER = `
Run tsmcp <target> at a terminal for an interactive session: pick a tool, prompt or resource,
fill its arguments, answer its questions, see the result; Ctrl-D leaves.

Exit codes:
  0    done
  1    the tool answered isError; a protocol error (error <code>: ...); a timeout; a failed
       connection or sign-in; a command that is no MCP server; a parked call that cannot resume
  2    a usage mistake; a missing argument or an unanswered question with no terminal to ask at;
       a scripted answer that does not fit the question, or that the server asked again after
  130  Ctrl-C while a task is followed (the task goes on; the command says how to resume it)

Every failure is one message on stderr naming what failed, the server, and the next step; with
--json also {"error":{"code","message","data"?}} on stdout.`;

/** The bare `tsmcp` command: name, description, version, and commander's exit behaviour. */
function createRootCommand(): Command {
  return (
    new Command("tsmcp")
      .description("Call any MCP server from a terminal, and answer its questions there.")
      .version("0.1.0")
      // After a usage mistake, a pointer to the help rather than all of it.
      .showHelpAfterError("(see tsmcp --help)")
      // Set before the commands are added, which copy it: no command calls process.exit.
      .exitOverride()
      .addHelpText("after", ROOT_HELP_AFTER)
  );
}

/** Adds the options every command shares (output, protocol, answers, sign-in) to `program`. */
function addGlobalOptions(program: Command): Command {
  return program
    .option("--json", "print only the JSON result on stdout")
    .option("--header <name:value>", "an HTTP header for every request (repeatable)", collect, [])
    .addOption(
      new Option("--protocol <mode>", "the protocol era to speak")
        .choices(["auto", "2026-07-28", "legacy"])
        .default("auto"),
    )
    .option("--timeout <ms>", "per-request timeout in milliseconds")
    .option("-q, --quiet", "no spinner and no progress on stderr while a request is outstanding")
    .option(
      "-v, --verbose",
      "show each round on stderr; -vv also each JSON-RPC message sent (->) and received (<-)",
      (_v, n: number) => n + 1,
      0,
    )
    .option(
      "--answer <key=json>",
      "answer input request <key> with this form content (repeatable); on a 2025-era session, whose " +
        "requests have no keys, <key> is the server's JSON-RPC request id, and any --answer whose " +
        "fields fit the form answers it",
      collect,
      [],
    )
    .option("--answers <file>", "a JSON file of answers: { key: { field: value } }")
    .option("--decline <key>", "decline input request <key> (repeatable)", collect, [])
    .option("--sample-reply <text>", "answer sampling requests with this text")
    .option(
      "--root <path>",
      "offer this directory (a path or a file: URI) to the server as a root (repeatable). A root " +
        "tells the server where it may work: some servers (the filesystem server) then work only " +
        "in the roots, instead of the directories they were started with. Without --root the " +
        "command declares no roots capability",
      collect,
      [],
    )
    .option("--open", "open URL-mode elicitations in the browser")
    .option("--no-open", "do not open the browser to sign in: print the URL on stderr only")
    .addOption(
      new Option(
        "--config-dir <dir>",
        "where sign-ins are kept (default $XDG_CONFIG_HOME/tsmcp or ~/.config/tsmcp)",
      ).env(CONFIG_DIR_ENV),
    )
    .option(
      "--callback-port <port>",
      "the sign-in redirect listener's port on 127.0.0.1 (default: any free one)",
    )
    .addOption(new Option("--client-id <id>", "a pre-registered OAuth client id").env("TSMCP_CLIENT_ID"))
    .addOption(
      new Option("--client-secret <secret>", "its secret (needs --issuer)").env("TSMCP_CLIENT_SECRET"),
    )
    .option("--issuer <url>", "the authorization server the pre-registered client belongs to")
    .option("--client-metadata-url <url>", "the https URL of this client's Client ID Metadata Document");
}

const TARGET_HELP = "an http(s) URL, or a command line to run over stdio";

/**
 * The body of a command that talks to a server: its positional arguments, then its own options;
 * the target as typed; the digest of the identity the command presents (see `identityOf`).
 */
type ClientBody = (
  client: Client,
  output: Output,
  args: unknown[],
  target: string,
  identity: string,
) => Promise<number>;

/** An action that connects, runs `body`, closes, and records the exit code in `exit`. */
function withClient(exit: ExitRecord, body: ClientBody) {
  return async (target: string, ...rest: unknown[]) => {
    const command = rest.at(-1) as Command;
    const options = command.optsWithGlobals<GlobalOptions>();
    const subject = typeof rest[0] === "string" && command.name() !== "tools" ? ` ${rest[0]}` : "";
    exit.context = {
      action: `${command.parent?.name() === "task" ? "task " : ""}${command.name()}${subject}`,
      server: target,
    };
    // A call that may be parked asks nobody: what has no scripted answer waits in the ticket.
    const asker = (command.opts() as { park?: boolean }).park === true ? undefined : terminalAsker(options);
    const output: Output = {
      json: options.json === true,
      verbose: options.verbose,
      interactive: asker !== undefined,
      unanswered: exit.unanswered,
    };
    const connection = await connect(
      target,
      options,
      asker,
      exit.unanswered,
      asker === undefined ? "never" : "interactive",
    );
    try {
      exit.code = await body(
        connection.client,
        output,
        [...rest.slice(0, -2), command.opts()],
        target,
        connection.identity,
      );
    } finally {
      await connection.close();
    }
  };
}

/** `tsmcp discover <target>`: what the server says about itself. */
function addDiscoverCommand(program: Command, exit: ExitRecord): void {
  program
    .command("discover")
    .description("show what the server says about itself")
    .argument("<target>", TARGET_HELP)
    .action(withClient(exit, (client, output) => discover(client, output)));
}

/** `tsmcp tools|prompts|resources|templates <target>`: one listing command per kind. */
function addListCommands(program: Command, exit: ExitRecord): void {
  for (const kind of ["tools", "prompts", "resources", "templates"] as const) {
    program
      .command(kind)
      .description(`list the server's ${kind === "templates" ? "resource templates" : kind}`)
      .argument("<target>", TARGET_HELP)
      .action(withClient(exit, (client, output) => list(client, kind, output)));
  }
}

/** `tsmcp call <target> <tool> [args...]`: calls a tool, answering its questions. */
function addCallCommand(program: Command, exit: ExitRecord): void {
  program
    .command("call")
    .description("call a tool, answering the questions it asks")
    .argument("<target>", TARGET_HELP)
    .argument("<tool>", "the tool's name")
    .argument("[args...]", "arguments as name=value (JSON values unless the schema says string)")
    .option("--args <json>", "arguments as a JSON object (name=value pairs override it)")
    .option(
      "--task",
      "let the server run the call as a task: its status goes to stderr while it is polled, then " +
        "the result prints (the task id is remembered for tsmcp task list)",
    )
    .option("--park", PARK_HELP)
    .option(
      "--ask-all",
      "at a terminal, ask for every argument not given, the optional ones too (the required ones are always asked)",
    )
    .action(
      withClient(exit, (client, output, [tool, pairs, opts], target, identity) => {
        const { args, task, park, askAll } = opts as {
          args?: string;
          task?: boolean;
          park?: boolean;
          askAll?: boolean;
        };
        if (task === true && park === true) throw new UsageError("--park and --task cannot be combined");
        if (task === true) {
          return callAsTask(client, { target, identity }, tool as string, pairs as string[], args, output);
        }
        const parking = park === true ? parkOption(target, "call") : undefined;
        return parkable(output, () =>
          call(client, tool as string, pairs as string[], args, output, parking, askAll === true),
        );
      }),
    );
}

/** `tsmcp task get|result|cancel|list <target> [id]`: tasks created earlier. */
function addTaskCommands(program: Command, exit: ExitRecord): void {
  const task = program
    .command("task")
    .description("follow the tasks a server runs: get, result, cancel, list")
    .addHelpText(
      "after",
      "\nTasks created with tsmcp call --task are remembered per target and identity (a digest of " +
        `the --header values and the sign-in) in $${STATE_DIR_ENV} (default $XDG_STATE_HOME/tsmcp or ` +
        "~/.local/state/tsmcp), for task list on a 2026-07-28 server.",
    );
  task
    .command("get")
    .description("show a task: status, status message, and its result or error once it ended")
    .argument("<target>", TARGET_HELP)
    .argument("<id>", "the task id")
    .action(withClient(exit, (client, output, [id]) => taskGet(client, id as string, output)));
  task
    .command("result")
    .description("wait for a task to end, answering its questions, and print its result")
    .argument("<target>", TARGET_HELP)
    .argument("<id>", "the task id")
    .action(
      withClient(exit, (client, output, [id], target) => taskResult(client, target, id as string, output)),
    );
  task
    .command("cancel")
    .description("ask the server to cancel a task")
    .argument("<target>", TARGET_HELP)
    .argument("<id>", "the task id")
    .action(withClient(exit, (client, output, [id]) => taskCancel(client, id as string, output)));
  task
    .command("list")
    .description(
      "list tasks: a 2025-11-25 server's tasks/list; at 2026-07-28 the tasks created from here for the target",
    )
    .argument("<target>", TARGET_HELP)
    .action(
      withClient(exit, (client, output, _args, target, identity) =>
        taskList(client, { target, identity }, output),
      ),
    );
}

/** `tsmcp prompt <target> <name> [args...]`: gets a prompt, answering its questions. */
function addPromptCommand(program: Command, exit: ExitRecord): void {
  program
    .command("prompt")
    .description("get a prompt, answering the questions it asks")
    .argument("<target>", TARGET_HELP)
    .argument("<name>", "the prompt's name")
    .argument("[args...]", "arguments as name=value")
    .option("--park", PARK_HELP)
    .action(
      withClient(exit, (client, output, [name, pairs, opts], target) => {
        const parking = (opts as { park?: boolean }).park === true ? parkOption(target, "prompt") : undefined;
        return parkable(output, () => prompt(client, name as string, pairs as string[], output, parking));
      }),
    );
}

/** `tsmcp read <target> <uri>`: reads a resource, answering its questions. */
function addReadCommand(program: Command, exit: ExitRecord): void {
  program
    .command("read")
    .description("read a resource, answering the questions it asks")
    .argument("<target>", TARGET_HELP)
    .argument("<uri>", "the resource URI")
    .option("--park", PARK_HELP)
    .action(
      withClient(exit, (client, output, [uri, opts], target) => {
        const parking = (opts as { park?: boolean }).park === true ? parkOption(target, "read") : undefined;
        return parkable(output, () => read(client, uri as string, output, parking));
      }),
    );
}

/** `tsmcp resume <ticket>`: goes on with a parked call, in a new process. */
function addResumeCommand(program: Command, exit: ExitRecord): void {
  program
    .command("resume")
    .description(
      "resume a call parked with --park: answer its questions (--answer key=<json>, or at the terminal) and print its result",
    )
    .argument("<ticket>", "the ticket tsmcp call --park printed")
    .action(async (ticket: string, _opts: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const output: Output = {
        json: options.json === true,
        verbose: options.verbose,
        unanswered: exit.unanswered,
      };
      const call = await waitingCall(ticket);
      exit.context = { action: `resume ${ticket}`, server: call.target ?? "(no target)" };
      if (call.target === undefined || call.target === "") {
        throw new UsageError(`parked call ${ticket} names no target to resume it at`);
      }
      const asker = terminalAsker(options);
      const connection = await connect(
        call.target,
        options,
        asker,
        exit.unanswered,
        asker === undefined ? "never" : "interactive",
      );
      try {
        exit.code = await parkable(output, () => resume(connection.client, call, scripted(options), output));
      } finally {
        await connection.close();
      }
    });
}

/** `tsmcp parked`: the calls parked with --park that wait. */
function addParkedCommand(program: Command, exit: ExitRecord): void {
  program
    .command("parked")
    .description("list the calls parked with --park: ticket, target, questions and deadline")
    .action(async (_opts: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      exit.code = await listParked({
        json: options.json === true,
        verbose: options.verbose,
        unanswered: exit.unanswered,
      });
    });
}

/** `tsmcp skills <target> [skill]`: lists the server's skills, or loads one, verified. */
function addSkillsCommand(program: Command, exit: ExitRecord): void {
  program
    .command("skills")
    .description(
      "list the server's skills, or load one (its SKILL.md, verified against its entry) and print it",
    )
    .argument("<target>", TARGET_HELP)
    .argument("[skill]", "a skill's name (as listed) or its SKILL.md URI")
    .action(
      withClient(exit, (client, output, [skill]) =>
        skillsCommand(client, skill as string | undefined, output),
      ),
    );
}

/** `tsmcp login <url>`: signs in to a protected server and keeps its tokens. */
function addLoginCommand(program: Command, exit: ExitRecord): void {
  program
    .command("login")
    .description("sign in to a protected server (OAuth, in the browser) and keep its tokens")
    .argument("<url>", "the server's http(s) URL")
    .action(async (target: string, _opts: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      if (parseTarget(target).kind !== "url")
        throw new UsageError(`login needs an http(s) URL, got ${target}`);
      const connection = await connect(target, options, undefined, exit.unanswered, "login");
      await connection.close();
      note(connection.obtainedTokens ? `Signed in to ${target}.` : `${target} asked for no sign-in.`);
    });
}

/** `tsmcp logout <url>`: forgets the tokens kept for a server. */
function addLogoutCommand(program: Command): void {
  program
    .command("logout")
    .description("forget the tokens kept for a server")
    .argument("<url>", "the server's http(s) URL")
    .action((target: string, _opts: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const url = parseTarget(target);
      if (url.kind !== "url") throw new UsageError(`logout needs an http(s) URL, got ${target}`);
      note(forget(options, url.url) ? `Signed out of ${target}.` : `Not signed in to ${target}.`);
    });
}

/** True when `program` is an executable file in a directory of `PATH`. */
function onPath(program: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((directory) => {
    try {
      accessSync(join(directory, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `tsmcp <target>`: the interactive session (the default command). At a terminal only; a word
 * that is no command and no target (a typo) is named.
 */
function addInteractiveCommand(program: Command, exit: ExitRecord): void {
  program
    .command("interactive", { isDefault: true, hidden: true })
    .argument("[target]", TARGET_HELP)
    .allowExcessArguments(true)
    .action(async (target: string | undefined, _opts: unknown, command: Command) => {
      if (target === undefined) {
        program.outputHelp({ error: true });
        exit.code = EXIT_USAGE;
        return;
      }
      // A word that names no command and runs no program is a mistyped command, not a target.
      if (command.args.length > 1 || (/^[\w.-]+$/.test(target) && !onPath(target))) {
        throw new UsageError(`unknown command '${target}' (see tsmcp --help)`);
      }
      const options = command.optsWithGlobals<GlobalOptions>();
      const asker = terminalAsker(options);
      if (asker === undefined) {
        throw new UsageError(
          "tsmcp <target> opens an interactive session at a terminal; without one, name a command (tsmcp tools <target>, tsmcp call <target> <tool>, ...)",
        );
      }
      const output: Output = {
        json: false,
        verbose: options.verbose,
        interactive: true,
        unanswered: exit.unanswered,
      };
      const connection = await connect(target, options, asker, exit.unanswered, "interactive");
      try {
        exit.code = await interactive(connection.client, output, (error) => failure(error).message);
      } finally {
        await connection.close();
      }
    });
}

/**
 * Runs the command line `argv` (without the node and script paths) and resolves its exit code.
 * Never rejects: every failure is written to stderr and becomes exit code 1 or 2.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const exit: ExitRecord = { code: 0, unanswered: [] };
  const program = buildProgram(exit);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exit.code;
  } catch (error) {
    return reportFailure(program, exit, error);
  }
}

/** Writes how a run failed (stderr, and stdout under `--json`) and returns its exit code. */
function reportFailure(program: Command, exit: ExitRecord, error: unknown): number {
  if (error instanceof CommanderError) {
    // --help and --version end with exit code 0; a usage mistake (already printed) with 2.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  const { code, message, error: json } = failure(error, exit.unanswered, exit.context);
  note(message);
  if (program.opts().json === true) process.stdout.write(`${safeJson({ error: json })}\n`);
  return code;
}
