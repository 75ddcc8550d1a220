import { describe, expect, it } from "vitest";
import { RequestMetaSchema } from "../protocol/schema/base.js";
import { CallToolRequestParamsSchema } from "../protocol/schema/methods.js";
import { META } from "../protocol/versions.js";
import { isPlainRequestMeta, plainCallToolParams } from "./plain-shapes.js";

const VERSION = "2026-07-28";

/** A `_meta` with `fields` over a valid base. */
function meta(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { [META.protocolVersion]: VERSION, [META.clientCapabilities]: {}, ...fields };
}

const metas: [string, unknown][] = [
  ["the minimal envelope", meta()],
  [
    "client info and form elicitation",
    meta({
      [META.clientInfo]: { name: "c", version: "1", title: "C", description: "d", websiteUrl: "https://x" },
      [META.clientCapabilities]: { elicitation: { form: {}, url: {} }, roots: {}, sampling: { tools: {} } },
    }),
  ],
  [
    "experimental and extensions records",
    meta({
      [META.clientCapabilities]: {
        experimental: { a: {} },
        extensions: { "io.x/y": { on: true } },
        other: 1,
      },
    }),
  ],
  ["a log level and a string progress token", meta({ [META.logLevel]: "debug", [META.progressToken]: "t" })],
  ["an unknown key", meta({ "x.example/extra": [1, 2] })],
  ["a null-prototype object", Object.assign(Object.create(null), meta())],
  ["no version", { [META.clientCapabilities]: {} }],
  ["a numeric version", meta({ [META.protocolVersion]: 1 })],
  ["no capabilities", { [META.protocolVersion]: VERSION }],
  ["capabilities as an array", meta({ [META.clientCapabilities]: [] })],
  ["capabilities as null", meta({ [META.clientCapabilities]: null })],
  ["roots as a string", meta({ [META.clientCapabilities]: { roots: "yes" } })],
  ["elicitation.form as an array", meta({ [META.clientCapabilities]: { elicitation: { form: [] } } })],
  ["sampling.context as a number", meta({ [META.clientCapabilities]: { sampling: { context: 1 } } })],
  [
    "an experimental entry that is not an object",
    meta({ [META.clientCapabilities]: { experimental: { a: 1 } } }),
  ],
  ["extensions as an array", meta({ [META.clientCapabilities]: { extensions: [] } })],
  ["client info without a version", meta({ [META.clientInfo]: { name: "c" } })],
  ["client info with a numeric title", meta({ [META.clientInfo]: { name: "c", version: "1", title: 2 } })],
  ["client info with icons", meta({ [META.clientInfo]: { name: "c", version: "1", icons: [{ src: "a" }] } })],
  ["an unknown log level", meta({ [META.logLevel]: "loud" })],
  ["a numeric progress token", meta({ [META.progressToken]: 7 })],
  ["a fractional progress token", meta({ [META.progressToken]: 1.5 })],
  ["an array", [meta()]],
  ["a class instance", new (class Meta {})()],
  [
    "an own __proto__ key",
    JSON.parse(`{"${META.protocolVersion}":"${VERSION}","${META.clientCapabilities}":{"__proto__":{}}}`),
  ],
];

describe("isPlainRequestMeta", () => {
  it.each(metas)("is true only where RequestMetaSchema accepts the value unchanged: %s", (_, value) => {
    const parsed = RequestMetaSchema.safeParse(value);
    if (isPlainRequestMeta(value)) {
      expect(parsed.success).toBe(true);
      expect(parsed.data).toStrictEqual({ ...(value as object) });
    }
  });

  it("takes the envelope a client sends on every request", () => {
    const value = meta({
      [META.clientInfo]: { name: "c", version: "1" },
      [META.clientCapabilities]: { elicitation: { form: {} } },
    });
    expect(isPlainRequestMeta(value)).toBe(true);
  });

  it("leaves every value the schema refuses to the schema", () => {
    for (const [, value] of metas) {
      if (!RequestMetaSchema.safeParse(value).success) expect(isPlainRequestMeta(value)).toBe(false);
    }
  });
});

const base = { name: "echo", _meta: meta() };
/** Each case: its name, the params, and whether the hand check takes them. */
const params: [string, unknown, boolean][] = [
  ["a name and arguments", { ...base, arguments: { text: "hi", nested: { a: [1] } } }, true],
  ["no arguments", base, true],
  ["a requestState", { ...base, requestState: "s" }, true],
  ["an unknown key", { ...base, extra: 1 }, true],
  ["no name", { arguments: {} }, false],
  ["a numeric name", { ...base, name: 1 }, false],
  ["arguments as an array", { ...base, arguments: [] }, false],
  ["arguments as null", { ...base, arguments: null }, false],
  ["a numeric requestState", { ...base, requestState: 2 }, false],
  ["inputResponses (left to the schema)", { ...base, inputResponses: { a: { action: "cancel" } } }, false],
  ["arguments with an own __proto__ key", { ...base, arguments: JSON.parse('{"__proto__":{"x":1}}') }, false],
];

describe("plainCallToolParams", () => {
  it.each(params)(
    "returns what the tools/call schema returns, or leaves it to the schema: %s",
    (_, value, taken) => {
      const plain = plainCallToolParams(value);
      expect(plain !== undefined).toBe(taken);
      if (plain !== undefined) expect(plain).toStrictEqual(CallToolRequestParamsSchema.parse(value));
    },
  );

  it("copies the params and their arguments, so the caller's objects are never changed", () => {
    const value = { ...base, arguments: { text: "hi" } };
    const plain = plainCallToolParams(value) as Record<string, unknown>;
    expect(plain).not.toBe(value);
    expect(plain.arguments).not.toBe(value.arguments);
    plain._meta = {};
    (plain.arguments as Record<string, unknown>).text = "changed";
    expect(value).toStrictEqual({ ...base, arguments: { text: "hi" } });
  });
});
