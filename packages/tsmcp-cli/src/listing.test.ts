import { describe, expect, it } from "vitest";
import {
  describeType,
  formatSignature,
  renderPrompts,
  renderResources,
  renderTemplates,
  renderTools,
  toolSignature,
  wrap,
} from "./listing.js";

const BOOK = {
  name: "book_table",
  title: "Book a table",
  description: "Books a table at the named restaurant for the party, and asks the user to confirm it.",
  inputSchema: {
    type: "object" as const,
    properties: {
      restaurant: { type: "string", minLength: 1 },
      party: { type: "integer", minimum: 1, maximum: 12, default: 2 },
      when: { type: "string", enum: ["lunch", "dinner"] },
      date: { type: "string", format: "date" },
      guest: {
        type: "object",
        properties: { name: { type: "string" }, phone: { type: ["string", "null"] } },
        required: ["name"],
      },
      tags: { type: "array", items: { type: "string", enum: ["quiet", "window"] } },
    },
    required: ["restaurant", "guest"],
  },
};

describe("the listing", () => {
  it("gives each argument its type, bounds, format, choices and default, marking the required", () => {
    expect(formatSignature(toolSignature(BOOK))).toBe(
      "book_table(restaurant*: string (non-empty), party: integer 1..12 = 2, " +
        'when: "lunch" | "dinner", date: string (date), guest*: { name*: string, phone: string | null }, ' +
        'tags: ("quiet" | "window")[])',
    );
    expect(describeType({ oneOf: [{ const: "s", title: "Small" }, { const: "l" }] })).toBe('"s" | "l"');
    expect(describeType({ type: "number", minimum: 0 })).toBe("number >= 0");
    expect(describeType({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER })).toBe(
      "integer >= 1",
    );
    expect(describeType({ type: "string", format: "email", minLength: 3, maxLength: 40 })).toBe(
      "string (email, 3..40 chars)",
    );
    expect(describeType(undefined)).toBe("any");
    expect(describeType({ type: "array", items: { type: "object" } })).toBe("object[]");
  });

  it("prints a tool as its heading, its signature wrapped after commas, and its description wrapped", () => {
    expect(renderTools([BOOK], 60)).toBe(
      [
        "book_table — Book a table",
        "  book_table(restaurant*: string (non-empty),",
        '    party: integer 1..12 = 2, when: "lunch" | "dinner",',
        "    date: string (date),",
        "    guest*: { name*: string, phone: string | null },",
        '    tags: ("quiet" | "window")[])',
        "  Books a table at the named restaurant for the party, and",
        "  asks the user to confirm it.",
      ].join("\n"),
    );
  });

  it("keeps the UI mark on the heading and separates entries with a blank line", () => {
    const inputSchema = { type: "object" as const, properties: { by: { type: "number" } }, required: ["by"] };
    expect(
      renderTools([
        { name: "inc", description: "Adds", inputSchema, _meta: { ui: { resourceUri: "ui://c/view" } } },
        { name: "plain", inputSchema: { type: "object" } },
      ]),
    ).toBe("inc  [ui ui://c/view]\n  inc(by*: number)\n  Adds\n\nplain\n  plain()");
  });

  it("prints prompts, resources and templates the same way", () => {
    expect(
      renderPrompts([
        {
          name: "briefing",
          description: "A status briefing",
          arguments: [{ name: "team", required: true }, { name: "tone" }],
        },
      ]),
    ).toBe("briefing\n  briefing(team*: string, tone: string)\n  A status briefing");
    expect(
      renderResources([{ uri: "docs://readme", name: "readme", mimeType: "text/markdown", size: 1500 }]),
    ).toBe("docs://readme — readme\n  text/markdown, 1.5 kB");
    expect(renderTemplates([{ uriTemplate: "notes://{id}", name: "note", description: "One note" }])).toBe(
      "notes://{id} — note\n  One note",
    );
  });

  it("wraps long words by cutting them, and keeps the text's own line breaks", () => {
    expect(wrap(`${"x".repeat(25)} y\nz`, 22, "  ")).toEqual(["  xxxxxxxxxxxxxxxxxxxx", "  xxxxx y", "  z"]);
  });
});
