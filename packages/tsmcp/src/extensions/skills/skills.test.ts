/**
 * The Skills extension end to end, in memory, in both eras: a server publishing skills from code
 * with `serveSkills`, and the client listing, getting and loading them, verified; and a server that
 * lies (wrong digest, size or front matter) whose content the client refuses.
 */
import { describe, expect, it } from "vitest";
import { Client, type ClientOptions } from "../../client/index.js";
import { methodNotFound } from "../../protocol/errors.js";
import { MCPServer } from "../../server/index.js";
import { getSkill, listSkills, loadSkill, SkillVerificationError } from "./client.js";
import { sha256Digest, utf8 } from "./format.js";
import { serveSkills } from "./server.js";
import { skill } from "./source.js";
import { type Skill, skills } from "./wire.js";

const ERAS: readonly [string, ClientOptions][] = [
  ["2026-07-28", {}],
  ["a 2025-11-25 session", { protocolVersion: "legacy" }],
];

const PDF = skill({
  name: "pdf-processing",
  description: "Extract, fill, and assemble PDF documents",
  frontmatter: { license: "MIT", metadata: { version: "2.1.0" } },
  instructions: "# PDF\n\nRead `references/FORMS.md` first.\n",
  files: {
    "references/FORMS.md": "# Forms\n",
    "templates/regional/eu.md": "# EU\n",
    "assets/logo.bin": new Uint8Array([0, 0xff, 0x10]),
  },
});
const REVIEW = skill({
  name: "code-review",
  description: "Review code.",
  prefix: "acme/eng",
  instructions: "# Review\n",
});

function skillServer(pageSize?: number): MCPServer {
  const mcp = new MCPServer("skills-test");
  serveSkills(mcp, [PDF, REVIEW], pageSize === undefined ? {} : { pageSize });
  return mcp;
}

async function connected(mcp: MCPServer, options: ClientOptions): Promise<Client> {
  const client = await Client.connect(mcp, options);
  return client;
}

describe.each(ERAS)("skills served by serveSkills, at %s", (_era, options) => {
  it("declares the extension with directoryRead and lists every skill with its manifest, page by page", async () => {
    const client = await connected(skillServer(1), options);
    expect(client.serverExtensions[skills.id]).toEqual({ directoryRead: true });
    expect(client.serverCapabilities?.resources).toBeDefined(); // skill files are resources
    const listed = await listSkills(client);
    expect(listed.map((s) => s.uri)).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://acme/eng/code-review/SKILL.md",
    ]);
    const pdf = listed[0] as Skill;
    expect(pdf.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
      license: "MIT",
      metadata: { version: "2.1.0" },
    });
    expect(Array.isArray(pdf.resources) && pdf.resources.map((r) => [r.uri, r.size])).toEqual([
      ["skill://pdf-processing/SKILL.md", (PDF.files.get("SKILL.md") as Uint8Array).byteLength],
      ["skill://pdf-processing/assets/logo.bin", 3],
      ["skill://pdf-processing/references/FORMS.md", 8],
      ["skill://pdf-processing/templates/regional/eu.md", 5],
    ]);
    expect(await getSkill(client, "skill://acme/eng/code-review/SKILL.md")).toEqual(listed[1]);
    await client.close();
  });

  it("answers -32602 for an unknown skill and serves each file through resources/read", async () => {
    const client = await connected(skillServer(), options);
    await expect(getSkill(client, "skill://nope/SKILL.md")).rejects.toMatchObject({ code: -32602 });
    const read = await client.readResource("skill://pdf-processing/SKILL.md");
    expect(read.contents[0]).toMatchObject({ mimeType: "text/markdown" });
    const listed = (await client.listResources()).resources.find(
      (r) => r.uri === "skill://pdf-processing/SKILL.md",
    );
    expect(listed).toMatchObject({
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
    });
    const blob = await client.readResource("skill://pdf-processing/assets/logo.bin");
    expect(blob.contents[0]).toMatchObject({ blob: "AP8Q" });
    await client.close();
  });

  it("quotes at most 200 characters of an unknown URI back, in the message and in data", async () => {
    const client = await connected(skillServer(), options);
    const long = `skill://${"a/".repeat(5000)}SKILL.md`;
    const quoted = `${long.slice(0, 200)}…`;
    await expect(getSkill(client, long)).rejects.toMatchObject({
      code: -32602,
      message: `No skill is served at ${quoted}`,
      data: { uri: quoted },
    });
    const dir = (uri: string) => client.requestExtension(skills, "resources/directory/read", { uri });
    await expect(dir(long)).rejects.toMatchObject({
      code: -32602,
      message: `No directory is served at ${quoted}`,
      data: { uri: quoted },
    });
    await client.close();
  });

  it("lists a directory's direct children, subdirectories as inode/directory, and refuses a file", async () => {
    const client = await connected(skillServer(), options);
    const dir = (uri: string) => client.requestExtension(skills, "resources/directory/read", { uri });
    expect((await dir("skill://pdf-processing")).resources).toEqual([
      { uri: "skill://pdf-processing/assets", name: "assets", mimeType: "inode/directory" },
      { uri: "skill://pdf-processing/references", name: "references", mimeType: "inode/directory" },
      { uri: "skill://pdf-processing/templates", name: "templates", mimeType: "inode/directory" },
      { uri: "skill://pdf-processing/SKILL.md", name: "SKILL.md", mimeType: "text/markdown" },
    ]);
    expect((await dir("skill://acme")).resources).toEqual([
      { uri: "skill://acme/eng", name: "eng", mimeType: "inode/directory" },
    ]);
    await expect(dir("skill://pdf-processing/SKILL.md")).rejects.toMatchObject({
      code: -32602,
      message: "skill://pdf-processing/SKILL.md is not a directory resource",
    });
    await client.close();
  });

  it("loads a skill verified, then reads only files its manifest lists, each verified", async () => {
    const client = await connected(skillServer(), options);
    const [entry] = await listSkills(client);
    const loaded = await loadSkill(client, entry as Skill);
    expect(loaded.body).toBe("\n# PDF\n\nRead `references/FORMS.md` first.\n");
    expect(loaded.root).toBe("skill://pdf-processing");
    expect((await loaded.readFile("references/FORMS.md")).text).toBe("# Forms\n");
    expect((await loaded.readFile("assets/logo.bin")).bytes).toEqual(new Uint8Array([0, 0xff, 0x10]));
    await expect(loaded.readFile("references/NEW.md")).rejects.toMatchObject({
      name: "SkillVerificationError",
      reason: "not-in-manifest",
      uri: "skill://pdf-processing/references/NEW.md",
    });
    await expect(loaded.readFile("../code-review/SKILL.md")).rejects.toMatchObject({
      reason: "not-in-manifest",
    });
    // By URI alone: skills/get first.
    const byUri = await loadSkill(client, "skill://acme/eng/code-review/SKILL.md");
    expect(byUri.name).toBe("code-review");
    await client.close();
  });
});

/** A server whose entry for `skill://pdf/SKILL.md` lies about the file it serves, as `tamper` says. */
async function lyingServer(tamper: "digest" | "size" | "frontmatter" | "none"): Promise<MCPServer> {
  const served = "---\nname: pdf\ndescription: Fill PDFs\n---\n\nBody.\n";
  const described = tamper === "digest" ? served.replace("Body.", "Evil.") : served;
  const entry: Skill = {
    uri: "skill://pdf/SKILL.md",
    frontmatter: { name: "pdf", description: tamper === "frontmatter" ? "Something else" : "Fill PDFs" },
    resources: [
      {
        uri: "skill://pdf/SKILL.md",
        digest: await sha256Digest(utf8(described)),
        size: utf8(described).byteLength + (tamper === "size" ? 1 : 0),
      },
      { uri: "skill://pdf/extra.md", digest: await sha256Digest(utf8("x")), size: 1 },
    ],
  };
  const mcp = new MCPServer("liar");
  mcp.resource("skill://pdf/SKILL.md", { mimeType: "text/markdown" }, () => served);
  mcp.resource("skill://pdf/extra.md", {}, () => "y");
  mcp.extension(skills, {
    handlers: {
      "skills/list": () => ({ skills: [entry] }),
      "skills/get": () => ({ skill: entry }),
      "resources/directory/read": () => {
        throw methodNotFound("resources/directory/read");
      },
    },
  });
  return mcp;
}

describe.each(ERAS)("a server whose content does not match its entry, at %s", (_era, options) => {
  it.each(["digest", "size", "frontmatter"] as const)(
    "refuses a SKILL.md that fails the %s check",
    async (tamper) => {
      const client = await connected(await lyingServer(tamper), options);
      const [entry] = await listSkills(client);
      const refused = await loadSkill(client, entry as Skill).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(SkillVerificationError);
      expect(refused).toMatchObject({
        reason: tamper,
        code: "ERR_SKILL_VERIFICATION",
        uri: "skill://pdf/SKILL.md",
        skillUri: "skill://pdf/SKILL.md",
      });
      await client.close();
    },
  );

  it("refuses a supporting file whose bytes differ from the manifest, after a verified SKILL.md", async () => {
    const client = await connected(await lyingServer("none"), options);
    const loaded = await loadSkill(client, "skill://pdf/SKILL.md");
    await expect(loaded.readFile("extra.md")).rejects.toMatchObject({ reason: "digest" });
    await client.close();
  });

  it("refuses a dynamic skill unless allowed, and an entry whose name is not its URI's", async () => {
    const client = await connected(skillServer(), options);
    const dynamic: Skill = {
      uri: "skill://pdf-processing/SKILL.md",
      frontmatter: (await listSkills(client))[0]?.frontmatter as Skill["frontmatter"],
      resources: "dynamic",
    };
    await expect(loadSkill(client, dynamic)).rejects.toMatchObject({ reason: "dynamic" });
    const loaded = await loadSkill(client, dynamic, { allowDynamic: true });
    expect((await loaded.readFile("references/FORMS.md")).text).toBe("# Forms\n");
    await expect(
      loadSkill(client, { ...dynamic, uri: "skill://other/SKILL.md" }, { allowDynamic: true }),
    ).rejects.toMatchObject({ reason: "invalid-entry" });
    await client.close();
  });
});

describe("serveSkills options", () => {
  it("refuses bad options and duplicate skills at registration", () => {
    expect(() => serveSkills(new MCPServer("x"), [PDF, PDF])).toThrow(
      /two skills at skill:\/\/pdf-processing/,
    );
    expect(() => serveSkills(new MCPServer("x"), [PDF], { pageSize: 0 })).toThrow(RangeError);
    expect(() => serveSkills(new MCPServer("x"), [PDF], { scheme: "a b" })).toThrow(TypeError);
    expect(() => serveSkills(new MCPServer("x"), [{} as never])).toThrow(TypeError);
  });

  it("advertises an empty settings object without directoryRead, and then has no directory method", async () => {
    const mcp = new MCPServer("x");
    serveSkills(mcp, [PDF], { directoryRead: false });
    const client = await Client.connect(mcp);
    expect(client.serverExtensions[skills.id]).toEqual({});
    await expect(
      client.requestExtension(skills, "resources/directory/read", { uri: "skill://pdf-processing" }),
    ).rejects.toMatchObject({ code: -32601 });
    await client.close();
  });
});
