import { describe, expect, it } from "vitest";
import { sha256Digest, utf8 } from "./format.js";
import { skillEntry } from "./manifest.js";
import { MAX_SKILL_FILES, skill, skillFromFiles } from "./source.js";

const SKILL_MD = "---\nname: pdf-processing\ndescription: Fill PDFs\nlicense: MIT\n---\n\n# PDF\n";

describe("skills from files", () => {
  it("takes name and front matter from SKILL.md and keeps every file's bytes", () => {
    const source = skillFromFiles("acme/pdf-processing", {
      "SKILL.md": SKILL_MD,
      "references/FORMS.md": "forms\n",
      "assets/logo.png": new Uint8Array([0x89, 0x50]),
    });
    expect(source.name).toBe("pdf-processing");
    expect(source.frontmatter).toEqual({ name: "pdf-processing", description: "Fill PDFs", license: "MIT" });
    expect([...source.files.keys()]).toEqual(["SKILL.md", "assets/logo.png", "references/FORMS.md"]);
    expect(source.files.get("assets/logo.png")).toEqual(new Uint8Array([0x89, 0x50]));
  });

  it("refuses a skill that breaks the format, naming the fault", () => {
    expect(() => skillFromFiles("pdf", { "README.md": "x" })).toThrow(/has no SKILL.md/);
    expect(() => skillFromFiles("pdf", { "SKILL.md": "# none\n" })).toThrow(/does not begin/);
    expect(() => skillFromFiles("other", { "SKILL.md": SKILL_MD })).toThrow(
      /last path segment "other" must equal the name "pdf-processing"/,
    );
    expect(() => skillFromFiles("Bad", { "SKILL.md": "---\nname: Bad\ndescription: x\n---\n" })).toThrow(
      /lowercase letters/,
    );
    expect(() => skillFromFiles("a", { "SKILL.md": "---\nname: a\n---\n" })).toThrow(/non-empty description/);
    expect(() => skillFromFiles("pdf-processing", { "SKILL.md": SKILL_MD, "../x": "x" })).toThrow(TypeError);
    expect(() => skillFromFiles("pdf-processing/", { "SKILL.md": SKILL_MD })).toThrow(/not a \/-separated/);
    expect(() =>
      skillFromFiles("pdf-processing", { "SKILL.md": new Uint8Array([0xff, 0xfe, 0x00]) }),
    ).toThrow(/not UTF-8/);
    const many = Object.fromEntries(Array.from({ length: MAX_SKILL_FILES }, (_, i) => [`f${i}.md`, "x"]));
    expect(() => skillFromFiles("pdf-processing", { "SKILL.md": SKILL_MD, ...many })).toThrow(RangeError);
  });
});

describe("skills from code", () => {
  it("writes SKILL.md from the front matter fields and the instructions", () => {
    const source = skill({
      name: "code-review",
      description: "Review code: the team's checklist",
      frontmatter: { license: "MIT", metadata: { version: "1.0" } },
      prefix: "acme",
      instructions: "# Review\n",
      files: { "references/checklist.md": "- tests\n" },
    });
    expect(source.path).toBe("acme/code-review");
    expect(source.frontmatter).toEqual({
      name: "code-review",
      description: "Review code: the team's checklist",
      license: "MIT",
      metadata: { version: "1.0" },
    });
    const text = new TextDecoder().decode(source.files.get("SKILL.md"));
    expect(text.startsWith("---\nname: code-review\n")).toBe(true);
    expect(text.endsWith("---\n\n# Review\n")).toBe(true);
  });
  it("refuses name or description inside frontmatter, and a SKILL.md among files", () => {
    const base = { name: "a", description: "b", instructions: "" };
    expect(() => skill({ ...base, frontmatter: { name: "x" } })).toThrow(/own options/);
    expect(() => skill({ ...base, files: { "SKILL.md": "x" } })).toThrow(/written from instructions/);
    expect(() => skill({ ...base, name: "A" })).toThrow(/lowercase/);
  });
});

describe("manifests", () => {
  it("lists SKILL.md first, then every file, with the SHA-256 and size of the bytes served", async () => {
    const source = skillFromFiles("acme/pdf-processing", {
      "SKILL.md": SKILL_MD,
      "references/my file.md": "forms\n",
    });
    const entry = await skillEntry(source);
    expect(entry).toEqual({
      uri: "skill://acme/pdf-processing/SKILL.md",
      frontmatter: source.frontmatter,
      resources: [
        {
          uri: "skill://acme/pdf-processing/SKILL.md",
          digest: await sha256Digest(utf8(SKILL_MD)),
          size: utf8(SKILL_MD).byteLength,
        },
        {
          uri: "skill://acme/pdf-processing/references/my%20file.md",
          digest: await sha256Digest(utf8("forms\n")),
          size: 6,
        },
      ],
    });
  });
});
