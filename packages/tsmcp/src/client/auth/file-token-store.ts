/**
 * A {@link TokenStore} in a JSON file, for command-line clients that should not authorize again at
 * every start. The file is written whole each time, atomically (a temporary file in the same
 * folder, created owner-only (0600), then renamed over the old one), so a crash never leaves half a
 * file and no other user can read the tokens. Node.js only: `node:fs` is found at run time through
 * `process.getBuiltinModule`, so tsmcp/client imports nothing Node-only.
 * Spec: basic/authorization §Refresh Tokens (refresh tokens kept confidential in storage).
 */
import type * as Fs from "node:fs/promises";
import type { OAuthTokens, StoredClient, TokenKey, TokenStore } from "./token-store.js";
import { tokenKeyString } from "./token-store.js";

interface FileContents {
  tokens: Record<string, OAuthTokens>;
  clients: Record<string, StoredClient>;
}

interface NodeProcess {
  getBuiltinModule?: (id: string) => unknown;
}

/** The permissions of the file: read and write for its owner only. */
export const TOKEN_FILE_MODE = 0o600;

/**
 * Tokens and client registrations in one JSON file.
 *
 * ```ts
 * const tokenStore = new FileTokenStore(join(homedir(), ".config", "my-cli", "tokens.json"));
 * ```
 */
export class FileTokenStore implements TokenStore {
  /** The file. */
  readonly path: string;
  readonly #fs: typeof Fs;
  /** Writes run one after another, each on the state the previous one left. */
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * @throws TypeError when `path` is not a non-empty string, or outside Node.js (20.16 and later).
   */
  constructor(path: string) {
    if (typeof path !== "string" || path === "") {
      throw new TypeError('FileTokenStore option "path" must be a non-empty string');
    }
    const fs = (globalThis as { process?: NodeProcess }).process?.getBuiltinModule?.("node:fs/promises");
    if (fs === undefined) throw new TypeError("FileTokenStore needs Node.js 20.16 or later (node:fs)");
    this.path = path;
    this.#fs = fs as typeof Fs;
  }

  async getTokens(key: TokenKey): Promise<OAuthTokens | undefined> {
    await this.#queue;
    return (await this.#read()).tokens[tokenKeyString(key)];
  }

  setTokens(key: TokenKey, tokens: OAuthTokens | undefined): Promise<void> {
    return this.#update((contents) => {
      if (tokens === undefined) delete contents.tokens[tokenKeyString(key)];
      else contents.tokens[tokenKeyString(key)] = tokens;
    });
  }

  async getClient(issuer: string): Promise<StoredClient | undefined> {
    await this.#queue;
    return (await this.#read()).clients[issuer];
  }

  setClient(issuer: string, client: StoredClient | undefined): Promise<void> {
    return this.#update((contents) => {
      if (client === undefined) delete contents.clients[issuer];
      else contents.clients[issuer] = client;
    });
  }

  /** The file's contents; empty when it does not exist. */
  async #read(): Promise<FileContents> {
    let text: string;
    try {
      text = await this.#fs.readFile(this.path, "utf8");
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return { tokens: {}, clients: {} };
      throw error;
    }
    const parsed = JSON.parse(text) as Partial<FileContents>;
    return { tokens: { ...parsed.tokens }, clients: { ...parsed.clients } };
  }

  #update(change: (contents: FileContents) => void): Promise<void> {
    const run = this.#queue.then(async () => {
      const contents = await this.#read();
      change(contents);
      await this.#write(contents);
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  async #write(contents: FileContents): Promise<void> {
    const temporary = `${this.path}.${crypto.randomUUID()}.tmp`;
    const handle = await this.#fs.open(temporary, "wx", TOKEN_FILE_MODE);
    try {
      await handle.writeFile(`${JSON.stringify(contents, null, 2)}\n`, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await this.#fs.rename(temporary, this.path);
    } catch (error) {
      await this.#fs.rm(temporary, { force: true });
      throw error;
    }
  }
}
