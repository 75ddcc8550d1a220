/**
 * The token stores: in memory, and in a file written atomically with owner-only permissions that
 * a new process (a new store on the same file) reads back.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileTokenStore, TOKEN_FILE_MODE } from "./file-token-store.js";
import { InMemoryTokenStore, type OAuthTokens, type TokenKey } from "./token-store.js";

const KEY: TokenKey = { issuer: "https://auth.example.com", resource: "https://mcp.example.com/mcp" };
const OTHER: TokenKey = { issuer: "https://auth.example.com", resource: "https://other.example.com/mcp" };
const TOKENS: OAuthTokens = { accessToken: "at-1", tokenType: "Bearer", refreshToken: "rt-1", scope: "a b" };

describe("InMemoryTokenStore", () => {
  it("keeps tokens per issuer and resource, and registrations per issuer", () => {
    const store = new InMemoryTokenStore();
    store.setTokens(KEY, TOKENS);
    expect(store.getTokens(KEY)).toEqual(TOKENS);
    expect(store.getTokens(OTHER)).toBeUndefined();
    expect(store.getTokens({ ...KEY, issuer: "https://elsewhere.example.com" })).toBeUndefined();
    store.setTokens(KEY, undefined);
    expect(store.getTokens(KEY)).toBeUndefined();
    store.setClient(KEY.issuer, { client_id: "c-1" });
    expect(store.getClient(KEY.issuer)).toEqual({ client_id: "c-1" });
    expect(store.getClient("https://elsewhere.example.com")).toBeUndefined();
  });
});

describe("FileTokenStore", () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "tsmcp-tokens-"));
    path = join(dir, "tokens.json");
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes an owner-only file that another store on the same path reads back", async () => {
    expect(TOKEN_FILE_MODE).toBe(0o600);
    const store = new FileTokenStore(path);
    expect(await store.getTokens(KEY)).toBeUndefined();
    await store.setTokens(KEY, TOKENS);
    await store.setClient(KEY.issuer, { client_id: "c-1", client_secret: "s-1" });
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const again = new FileTokenStore(path);
    expect(await again.getTokens(KEY)).toEqual(TOKENS);
    expect(await again.getTokens(OTHER)).toBeUndefined();
    expect(await again.getClient(KEY.issuer)).toEqual({ client_id: "c-1", client_secret: "s-1" });
    await again.setTokens(KEY, undefined);
    expect(await store.getTokens(KEY)).toBeUndefined();
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
      tokens: {},
      clients: { [KEY.issuer]: { client_id: "c-1", client_secret: "s-1" } },
    });
  });

  it("keeps every one of many writes made at once, and leaves no temporary file behind", async () => {
    const store = new FileTokenStore(path);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.setTokens(
          { issuer: KEY.issuer, resource: `https://mcp.example.com/${i}` },
          { ...TOKENS, accessToken: `at-${i}` },
        ),
      ),
    );
    for (let i = 0; i < 20; i++) {
      expect(
        (await store.getTokens({ issuer: KEY.issuer, resource: `https://mcp.example.com/${i}` }))
          ?.accessToken,
      ).toBe(`at-${i}`);
    }
    expect(await readdir(dir)).toEqual(["tokens.json"]);
  });

  it("replaces a file that others could read with an owner-only one at the next write", async () => {
    await writeFile(path, JSON.stringify({ tokens: {}, clients: {} }), { mode: 0o644 });
    await new FileTokenStore(path).setTokens(KEY, TOKENS);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("refuses an empty path when built", () => {
    expect(() => new FileTokenStore("")).toThrow(
      new TypeError('FileTokenStore option "path" must be a non-empty string'),
    );
  });
});
