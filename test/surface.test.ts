/**
 * The curated surface, pinned by what it must not do: no thing exported twice (under two names or
 * two entries), no name standing for two things, no root entry on the SDK package; and the local
 * errors' table `ERROR_CODES`: every class extending `TsmcpError` in the packages is constructed
 * here, and its `code`, `name` and `isTsmcpError` agree with the table, which has no code without
 * a class.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { OAuthError, OAuthResponseTooLargeError } from "../packages/tsmcp/src/client/auth/errors.js";
import {
  ExtensionNotSupportedError,
  InputRequestsPerRoundExceededError,
  InputRequiredRoundsExceededError,
  InvalidServerResponseError,
  MethodNotInEraError,
  ProtocolNegotiationError,
  RequestStateTooLargeError,
  RequestTimeoutError,
  ServerCapabilityMissingError,
  TaskCancelledError,
  UnexpectedInputRequiredError,
  UnknownTaskError,
  UnsupportedInputRequestError,
} from "../packages/tsmcp/src/client/errors.js";
import {
  CallParkedError,
  InputUnavailableError,
  ParkedCallRefusedError,
} from "../packages/tsmcp/src/client/park.js";
import { UiResourceError } from "../packages/tsmcp/src/extensions/apps/client.js";
import { SkillVerificationError } from "../packages/tsmcp/src/extensions/skills/client.js";
import { ERROR_CODES, isTsmcpError, TsmcpError } from "../packages/tsmcp/src/protocol/index.js";
import { InvalidTokenError } from "../packages/tsmcp/src/server/auth/verifier.js";
import { NonDeterministicHandlerError } from "../packages/tsmcp/src/server/resolve/ask-errors.js";
import { ResolverError } from "../packages/tsmcp/src/server/resolve/errors.js";
import { InvalidHandlerResultError } from "../packages/tsmcp/src/server/shaping.js";
import { InvalidRequestState } from "../packages/tsmcp/src/server/state/errors.js";
import { ReplayCacheFullError, StateUnavailableError } from "../packages/tsmcp/src/state/errors.js";
import * as stdioStandIn from "../packages/tsmcp/src/stdio/unsupported.js";
import { AuthorizationRefusedError } from "../packages/tsmcp/src/transport/http/client/refusal.js";
import { ServerProcessExitedError } from "../packages/tsmcp/src/transport/stdio/client.js";
import { LineTooLongError } from "../packages/tsmcp/src/transport/stdio/framing.js";
import { SessionExpiredError, TransportError } from "../packages/tsmcp/src/transport/transport.js";
import { AnswerRejectedError, UnansweredInputError } from "../packages/tsmcp-cli/src/answers.js";
import { MissingArgumentsError } from "../packages/tsmcp-cli/src/arguments.js";
import { SignInRequiredError } from "../packages/tsmcp-cli/src/auth.js";
import { UsageError } from "../packages/tsmcp-cli/src/target.js";
import { summarize, surface } from "../scripts/surface.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("the public surface", () => {
  // One program over every entry: built once, read by the three checks.
  const summary = summarize(surface());

  it("exports no thing under two names or two entries", () => {
    expect(summary.repeated).toEqual([]);
  });

  it("gives no name to two things", () => {
    expect(summary.overloaded).toEqual([]);
  });

  it("counts every entry and only the SDK's subpaths", () => {
    expect(summary.exportedNames).toBeGreaterThan(0);
    expect(summary.exportedNames).toBe(summary.distinctThings);
    expect(Object.keys(summary.byEntry).every((entry) => entry.startsWith("tsmcp/"))).toBe(true);
  });

  it("has no root entry on the SDK package", () => {
    const pkg = JSON.parse(readFileSync(resolve(repo, "packages/tsmcp/package.json"), "utf8")) as {
      exports: Record<string, unknown>;
      main?: unknown;
      module?: unknown;
    };
    expect(Object.keys(pkg.exports)).not.toContain(".");
    expect(pkg.main).toBeUndefined();
    expect(pkg.module).toBeUndefined();
  });
});

/** `file:Class` of every class in the packages' sources extending `TsmcpError`, directly or not. */
function localErrorClasses(): string[] {
  const sources: { file: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = resolve(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name))
        sources.push({ file: relative(repo, path), text: readFileSync(path, "utf8") });
    }
  };
  for (const pkg of readdirSync(resolve(repo, "packages"))) walk(resolve(repo, "packages", pkg, "src"));
  const declared = sources.flatMap(({ file, text }) =>
    [...text.matchAll(/^export (?:abstract )?class (\w+) extends (\w+)/gm)].map((match) => ({
      file,
      name: match[1] as string,
      base: match[2] as string,
    })),
  );
  const bases = new Set(["TsmcpError"]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const { name, base } of declared)
      if (bases.has(base) && !bases.has(name)) {
        bases.add(name);
        grown = true;
      }
  }
  return declared
    .filter(({ base }) => bases.has(base))
    .map(({ file, name }) => `${file}:${name}`)
    .sort();
}

const sdk = "packages/tsmcp/src";
const cli = "packages/tsmcp-cli/src";
const inputRequired = { resultType: "input_required", inputRequests: {} } as never;

/** One instance of every local error class, by `file:Class`. */
const instances: Record<string, Error> = {
  [`${sdk}/server/auth/verifier.ts:InvalidTokenError`]: new InvalidTokenError("expired"),
  [`${sdk}/server/resolve/errors.ts:ResolverError`]: new ResolverError("region", "declined"),
  [`${sdk}/server/resolve/ask-errors.ts:NonDeterministicHandlerError`]: new NonDeterministicHandlerError(
    2,
    'ctx.once("charge")',
    'ctx.ask("confirm")',
  ),
  [`${sdk}/state/errors.ts:ReplayCacheFullError`]: new ReplayCacheFullError(10),
  [`${sdk}/state/errors.ts:StateUnavailableError`]: new StateUnavailableError("redis is down"),
  [`${sdk}/server/shaping.ts:InvalidHandlerResultError`]: new InvalidHandlerResultError("not an object"),
  [`${sdk}/server/state/errors.ts:InvalidRequestState`]: new InvalidRequestState("seal"),
  [`${sdk}/transport/transport.ts:TransportError`]: new TransportError("refused", { httpStatus: 502 }),
  [`${sdk}/transport/transport.ts:SessionExpiredError`]: new SessionExpiredError("gone"),
  [`${sdk}/transport/http/client/refusal.ts:AuthorizationRefusedError`]: new AuthorizationRefusedError(
    "https://mcp.example.com/mcp",
    401,
    { scheme: "bearer", error: "invalid_token" },
  ),
  [`${sdk}/transport/stdio/client.ts:ServerProcessExitedError`]: new ServerProcessExitedError("exited", {
    exitCode: 1,
    signal: null,
  }),
  [`${sdk}/transport/stdio/framing.ts:LineTooLongError`]: new LineTooLongError(1024),
  [`${sdk}/client/auth/errors.ts:OAuthError`]: new OAuthError("discovery", "no metadata"),
  [`${sdk}/client/auth/errors.ts:OAuthResponseTooLargeError`]: new OAuthResponseTooLargeError(
    "token response",
    "https://as.example.com/token",
    1024,
  ),
  [`${sdk}/client/errors.ts:InputRequiredRoundsExceededError`]: new InputRequiredRoundsExceededError(
    8,
    "tools/call",
  ),
  [`${sdk}/client/errors.ts:InputRequestsPerRoundExceededError`]: new InputRequestsPerRoundExceededError(
    4,
    5,
    "tools/call",
  ),
  [`${sdk}/client/errors.ts:RequestStateTooLargeError`]: new RequestStateTooLargeError(1024, "tools/call"),
  [`${sdk}/client/errors.ts:UnexpectedInputRequiredError`]: new UnexpectedInputRequiredError(
    "tools/list",
    inputRequired,
  ),
  [`${sdk}/client/errors.ts:UnsupportedInputRequestError`]: new UnsupportedInputRequestError(
    "name",
    "tools/call",
    "no elicitation callback",
  ),
  [`${sdk}/client/errors.ts:InvalidServerResponseError`]: new InvalidServerResponseError("not a result"),
  [`${sdk}/client/errors.ts:RequestTimeoutError`]: new RequestTimeoutError("tools/call", 1000),
  [`${sdk}/client/errors.ts:ProtocolNegotiationError`]: new ProtocolNegotiationError("no shared revision", [
    "2025-06-18",
  ]),
  [`${sdk}/client/errors.ts:MethodNotInEraError`]: new MethodNotInEraError(
    "tasks/get",
    "2025-06-18",
    "use a newer server",
  ),
  [`${sdk}/client/errors.ts:ServerCapabilityMissingError`]: new ServerCapabilityMissingError(
    "resources.subscribe",
    "subscribing to notes://1",
  ),
  [`${sdk}/client/errors.ts:ExtensionNotSupportedError`]: new ExtensionNotSupportedError(
    "com.example/audit",
    "audit/recent",
    "audit-server",
  ),
  [`${sdk}/client/park.ts:InputUnavailableError`]: new InputUnavailableError("nobody is here"),
  [`${sdk}/client/park.ts:ParkedCallRefusedError`]: new ParkedCallRefusedError(
    "resumed",
    "AAAAAAAAAAAAAAAAAAAAAA",
  ),
  [`${sdk}/client/park.ts:CallParkedError`]: new CallParkedError(
    {
      ticket: "AAAAAAAAAAAAAAAAAAAAAA",
      method: "tools/call",
      params: { name: "provision" },
      inputRequests: {},
      round: 1,
      protocolVersion: "2026-07-28",
      parkedAtMs: 0,
      deadlineMs: 1,
    },
    undefined,
  ),
  [`${sdk}/client/errors.ts:UnknownTaskError`]: new UnknownTaskError("task-1", "tasks/get"),
  [`${sdk}/client/errors.ts:TaskCancelledError`]: new TaskCancelledError("task-1", "stopped"),
  [`${sdk}/extensions/skills/client.ts:SkillVerificationError`]: new SkillVerificationError(
    "digest",
    "skill://pdf/SKILL.md",
    "skill://pdf/SKILL.md",
    "read sha256:00, the manifest says sha256:11",
  ),
  [`${sdk}/extensions/apps/client.ts:UiResourceError`]: new UiResourceError(
    "not a ui:// resource",
    "https://x",
  ),
  [`${cli}/answers.ts:AnswerRejectedError`]: new AnswerRejectedError(
    "name",
    {},
    { action: "accept", content: { name: 7 } },
    "not a string",
  ),
  [`${cli}/answers.ts:UnansweredInputError`]: new UnansweredInputError("name", {}, "pass --answer"),
  [`${cli}/auth.ts:SignInRequiredError`]: new SignInRequiredError("https://example.com/mcp"),
  [`${cli}/target.ts:UsageError`]: new UsageError("no target"),
  [`${cli}/arguments.ts:MissingArgumentsError`]: new MissingArgumentsError("book", [
    { path: ["restaurant"], schema: { type: "string" }, required: true },
  ]),
};

/**
 * The classes of the `tsmcp/stdio` stand-in (what the entry resolves to outside Node.js): they exist
 * so that `instanceof` checks type-check and run, and refuse to be constructed.
 */
const standIns: Record<string, new () => Error> = {
  [`${sdk}/stdio/unsupported.ts:ServerProcessExitedError`]: stdioStandIn.ServerProcessExitedError,
  [`${sdk}/stdio/unsupported.ts:LineTooLongError`]: stdioStandIn.LineTooLongError,
};

describe("the local errors and ERROR_CODES", () => {
  const classes = localErrorClasses();
  const className = (key: string) => key.slice(key.lastIndexOf(":") + 1);

  it("constructs every class extending TsmcpError in the packages", () => {
    expect(classes.length).toBeGreaterThan(0);
    expect([...Object.keys(instances), ...Object.keys(standIns)].sort()).toEqual(classes);
  });

  it.each(Object.keys(standIns))("%s (stand-in) has a table entry and refuses construction", (key) => {
    const StandIn = standIns[key] as new () => Error;
    expect(StandIn.name).toBe(className(key));
    expect(Object.keys(ERROR_CODES)).toContain(className(key));
    expect(() => new StandIn()).toThrow(/needs Node\.js/);
  });

  it.each(classes.filter((key) => key.startsWith(`${sdk}/`) && !(key in standIns)))(
    "%s carries its table code",
    (key) => {
      const error = instances[key] as TsmcpError;
      const name = className(key);
      expect(error).toBeInstanceOf(TsmcpError);
      expect(error.name).toBe(name);
      expect(error.code).toBe(ERROR_CODES[name as keyof typeof ERROR_CODES]);
      expect(isTsmcpError(error)).toBe(true);
    },
  );

  it.each(classes.filter((key) => key.startsWith(`${cli}/`)))("%s has a code of its own", (key) => {
    const error = instances[key] as TsmcpError;
    expect(error).toBeInstanceOf(TsmcpError);
    expect(error.name).toBe(className(key));
    expect(error.code).toMatch(/^ERR_[A-Z_]+$/);
    expect(Object.values(ERROR_CODES)).not.toContain(error.code);
  });

  it("has no code without a class, and no code twice", () => {
    const sdkClasses = new Set(classes.filter((key) => key.startsWith(`${sdk}/`)).map(className));
    expect(Object.keys(ERROR_CODES).sort()).toEqual([...sdkClasses].sort());
    const codes = Object.values(ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("does not take a plain Error or a wire-shaped object for a local error", () => {
    expect(isTsmcpError(new Error("boom"))).toBe(false);
    expect(isTsmcpError({ code: ERROR_CODES.TransportError, message: "not an Error" })).toBe(false);
  });
});
