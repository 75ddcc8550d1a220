import { describe, expect, it } from "vitest";
import {
  frontmatterDifferences,
  isSkillName,
  jsonEqual,
  parseSkillMarkdown,
  resolveSkillReference,
  sha256Digest,
  skillNameOfUri,
  skillRootOf,
  utf8,
} from "./format.js";

describe("skill names (Agent Skills rules)", () => {
  it("accepts 1 to 64 lowercase letters, digits and inner hyphens", () => {
    for (const name of ["a", "pdf-processing", "x1", "a".repeat(64), "git-workflow-2"])
      expect(isSkillName(name), name).toBe(true);
  });
  it("refuses capitals, leading, trailing or doubled hyphens, other characters and 65 characters", () => {
    for (const name of ["", "PDF", "-a", "a-", "a--b", "a_b", "a.b", "a b", "a".repeat(65), "é"])
      expect(isSkillName(name), name).toBe(false);
  });
});

describe("SKILL.md front matter", () => {
  it("splits front matter and body, keeping every field as the YAML has it", () => {
    const parsed = parseSkillMarkdown(
      "---\nname: pdf\ndescription: Fill PDFs\nlicense: MIT\nmetadata:\n  version: '2.1'\n  tags: [a, b]\n---\n\n# PDF\n",
    );
    expect(parsed).toEqual({
      frontmatter: {
        name: "pdf",
        description: "Fill PDFs",
        license: "MIT",
        metadata: { version: "2.1", tags: ["a", "b"] },
      },
      body: "\n# PDF\n",
    });
  });
  it("accepts CRLF line ends, a byte order mark and an empty body", () => {
    expect(parseSkillMarkdown("\uFEFF---\r\nname: a\r\ndescription: b\r\n---")).toEqual({
      frontmatter: { name: "a", description: "b" },
      body: "",
    });
  });
  it("names the fault: no block, bad YAML, not a mapping, duplicate keys, non-JSON values", () => {
    expect(parseSkillMarkdown("# no front matter\n")).toMatch(/does not begin/);
    expect(parseSkillMarkdown("---\nname: a---\n")).toMatch(/does not begin/);
    expect(parseSkillMarkdown("---\nname: [a\n---\n")).toMatch(/not valid YAML/);
    expect(parseSkillMarkdown("---\n- a\n---\n")).toMatch(/not a YAML mapping/);
    expect(parseSkillMarkdown("---\nname: a\nname: b\n---\n")).toMatch(/not valid YAML/);
    expect(parseSkillMarkdown("---\nname: a\nsize: .inf\n---\n")).toMatch(
      /frontmatter.size is not a finite number/,
    );
  });
  it("compares front matter field by field, in any key order", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: "1" })).toBe(false);
    expect(
      frontmatterDifferences({ name: "a", description: "x", extra: 1 }, { name: "a", description: "y" }),
    ).toEqual(["description", "extra"]);
  });
});

describe("skill URIs", () => {
  it("takes the name and root from a SKILL.md URI, under any scheme", () => {
    expect(skillNameOfUri("skill://acme/billing/refunds/SKILL.md")).toBe("refunds");
    expect(skillRootOf("skill://acme/billing/refunds/SKILL.md")).toBe("skill://acme/billing/refunds");
    expect(skillNameOfUri("github://o/r/skills/pdf/SKILL.md")).toBe("pdf");
    expect(skillRootOf("skill://SKILL.md")).toBeUndefined();
    expect(skillRootOf("skill://pdf/README.md")).toBeUndefined();
    expect(skillNameOfUri("not a uri/SKILL.md")).toBeUndefined();
  });
  it("resolves references against the skill's root, never above it", () => {
    const root = "skill://pdf";
    expect(resolveSkillReference(root, "references/FORMS.md")).toBe("skill://pdf/references/FORMS.md");
    expect(resolveSkillReference(root, "./a/../b.md")).toBe("skill://pdf/b.md");
    expect(resolveSkillReference(root, "../other/SKILL.md")).toBeUndefined();
    expect(resolveSkillReference(root, "skill://other/x.md")).toBe("skill://other/x.md");
  });
});

describe("digests", () => {
  it("is sha256: and the lowercase hex of the bytes' SHA-256", async () => {
    expect(await sha256Digest(utf8("abc"))).toBe(
      "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});
