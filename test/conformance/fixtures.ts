/**
 * The data of the conformance everything-server, apart from how it is served: the fixed content the
 * suite checks for, the input requests the multi-round-trip fixtures ask, and small readers of the
 * answers. Spec references are the scenario names of `@modelcontextprotocol/conformance`.
 */
import { elicitationRequest, rootsRequest, samplingRequest } from "tsmcp/server";
import {
  type ClientCapabilities,
  type ElicitResult,
  type InputResponses,
  McpError,
  type TextContent,
  type Tool,
} from "tsmcp/types";

/** A 1x1 red PNG. */
export const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A 44-byte WAV header with one silent 8-bit sample (8 kHz, mono). */
export const SILENT_WAV = "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA";

/** The JSON Schema 2020-12 input schema `json-schema-2020-12` looks for, keyword for keyword. */
export const JSON_SCHEMA_2020_12_INPUT: Tool["inputSchema"] = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** Text content. */
export function text(value: string): TextContent {
  return { type: "text", text: value };
}

/** `elicitation/create` for a single required string field. */
export function askString(message: string, field: string) {
  return elicitationRequest({
    message,
    requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
  });
}

/** `elicitation/create` for a required boolean `ok`. */
export const ASK_CONFIRM = elicitationRequest({
  message: "Please confirm",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
});

/** `sampling/createMessage` for one user message. */
export function askModel(prompt: string, maxTokens = 100) {
  return samplingRequest({ messages: [{ role: "user", content: text(prompt) }], maxTokens });
}

/** `roots/list`. */
export const ASK_ROOTS = rootsRequest();

/** The SEP-1034 form: a default for every primitive type. */
export const ASK_WITH_DEFAULTS = elicitationRequest({
  message: "Test client default value handling - please accept with defaults",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "User name", default: "John Doe" },
      age: { type: "integer", description: "User age", default: 30 },
      score: { type: "number", description: "User score", default: 95.5 },
      status: {
        type: "string",
        description: "User status",
        enum: ["active", "inactive", "pending"],
        default: "active",
      },
      verified: { type: "boolean", description: "Verification status", default: true },
    },
  },
});

/** The SEP-1330 form: every enum variant. */
export const ASK_WITH_ENUMS = elicitationRequest({
  message: "Pick from every kind of enum",
  requestedSchema: {
    type: "object",
    properties: {
      untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
      titledSingle: {
        type: "string",
        oneOf: [
          { const: "value1", title: "First Option" },
          { const: "value2", title: "Second Option" },
          { const: "value3", title: "Third Option" },
        ],
      },
      legacyEnum: {
        type: "string",
        enum: ["opt1", "opt2", "opt3"],
        enumNames: ["Option One", "Option Two", "Option Three"],
      },
      untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
      titledMulti: {
        type: "array",
        items: {
          anyOf: [
            { const: "value1", title: "First Choice" },
            { const: "value2", title: "Second Choice" },
            { const: "value3", title: "Third Choice" },
          ],
        },
      },
    },
  },
});

/** The `test_elicitation` form: a username and an email address, with `message` as its prompt. */
export function askUserInfo(message: string) {
  return elicitationRequest({
    message,
    requestedSchema: {
      type: "object",
      properties: {
        username: { type: "string", description: "User's response" },
        email: { type: "string", description: "User's email address" },
      },
      required: ["username", "email"],
    },
  });
}

/** The text of a sampling answer's content (one block or a list), empty when it has none. */
export function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) =>
      typeof block === "object" && block !== null && "text" in block ? String(block.text) : "",
    )
    .join("");
}

/** A one-line description of an elicitation result, for result texts. */
export function describeElicitResult(answer: ElicitResult): string {
  return `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

/** The answer under `key`, when the client gave one. */
export function answerOf(responses: InputResponses | undefined, key: string): unknown {
  return responses !== undefined && Object.hasOwn(responses, key) ? responses[key] : undefined;
}

/** An elicitation answer's content when it was accepted, else `undefined`. */
export function accepted(
  responses: InputResponses | undefined,
  key: string,
): Record<string, unknown> | undefined {
  const answer = answerOf(responses, key) as ElicitResult | undefined;
  if (typeof answer !== "object" || answer === null || answer.action !== "accept") return undefined;
  return (answer.content ?? {}) as Record<string, unknown>;
}

/** A one-line description of an elicitation answer, for result texts. */
export function describeElicitation(responses: InputResponses | undefined, key: string): string {
  const answer = answerOf(responses, key) as ElicitResult | undefined;
  return answer === undefined ? "action=none, content={}" : describeElicitResult(answer);
}

/** Sleeps, ending early (rejecting) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** -32021 unless the request declared `capability` (a server MUST NOT rely on undeclared ones). */
export function requireCapability(
  ctx: { readonly clientCapabilities: ClientCapabilities },
  capability: keyof ClientCapabilities & string,
): void {
  if (ctx.clientCapabilities[capability] === undefined) {
    throw McpError.of(
      "MISSING_REQUIRED_CLIENT_CAPABILITY",
      `This request needs the client capability "${capability}"`,
      { requiredCapabilities: { [capability]: {} } },
    );
  }
}
