import { describe, expect, it } from "vitest";
import * as z from "zod";
import { defineExtension, isExtensionId } from "./extension.js";

describe("defineExtension", () => {
  const methods = {
    "audit/recent": { params: z.object({ limit: z.number() }), result: z.object({ n: z.number() }) },
  };

  it("returns the declaration frozen, with empty defaults", () => {
    const audit = defineExtension({ id: "com.example/audit", methods });
    expect(audit.id).toBe("com.example/audit");
    expect(Object.keys(audit.methods)).toEqual(["audit/recent"]);
    expect(audit.notifications).toEqual({});
    expect(audit.metaKeys).toEqual([]);
    expect(Object.isFrozen(audit)).toBe(true);
    expect(Object.isFrozen(audit.methods)).toBe(true);
  });

  it.each(["skills", "io/skills", "io.modelcontextprotocol/", "-io.x/y", "io.x/-y", "io..x/y", "io.x/y/z"])(
    "refuses the identifier %j",
    (id) => {
      expect(isExtensionId(id)).toBe(false);
      expect(() => defineExtension({ id })).toThrow(/vendor-prefix/);
    },
  );

  it.each(["io.modelcontextprotocol/skills", "io.modelcontextprotocol/ui", "com.example/my_ext.v2"])(
    "accepts the identifier %j",
    (id) => expect(isExtensionId(id)).toBe(true),
  );

  it("refuses a core method, a notification among methods, and a request among notifications", () => {
    const schema = { params: z.object({}), result: z.object({}) };
    expect(() => defineExtension({ id: "com.example/x", methods: { "tools/call": schema } })).toThrow(
      /core method/,
    );
    expect(() => defineExtension({ id: "com.example/x", methods: { "notifications/x": schema } })).toThrow(
      /notification/,
    );
    expect(() =>
      defineExtension({ id: "com.example/x", notifications: { "x/changed": z.object({}) } }),
    ).toThrow(/must start with "notifications\/"/);
  });

  it("refuses a _meta key without a prefix", () => {
    expect(() => defineExtension({ id: "com.example/x", metaKeys: ["ui"] })).toThrow(/needs a prefix/);
    expect(defineExtension({ id: "com.example/x", metaKeys: ["com.example/ui"] }).metaKeys).toEqual([
      "com.example/ui",
    ]);
  });
});
