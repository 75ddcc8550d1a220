import { mkdtemp } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { CONFIG_DIR_ENV, configDir, signIn, tokenFile } from "./auth.js";
import { CALLBACK_PATH, listenForRedirect } from "./loopback.js";

describe("the config directory", () => {
  it("is --config-dir, else $XDG_CONFIG_HOME/tsmcp, else ~/.config/tsmcp", () => {
    expect(CONFIG_DIR_ENV).toBe("TSMCP_CONFIG_DIR");
    expect(configDir("/tmp/x", { XDG_CONFIG_HOME: "/xdg" })).toBe("/tmp/x");
    expect(configDir(undefined, { XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/tsmcp");
    // A relative XDG_CONFIG_HOME is invalid and ignored (XDG Base Directory Specification).
    expect(configDir(undefined, { XDG_CONFIG_HOME: "xdg" })).toBe(join(homedir(), ".config", "tsmcp"));
    expect(configDir(undefined, {})).toBe(join(homedir(), ".config", "tsmcp"));
  });

  it("holds one token file per server URL, named after its host and path", () => {
    const a = tokenFile("/c", new URL("https://mcp.example.com/mcp"));
    expect(a).toMatch(/^\/c\/tokens\/mcp\.example\.com_mcp-[0-9a-f]{12}\.json$/);
    expect(tokenFile("/c", new URL("https://mcp.example.com/mcp?x=1"))).not.toBe(a);
    expect(tokenFile("/c", new URL("https://mcp.example.com/mcp"))).toBe(a);
  });
});

describe("the loopback redirect listener", () => {
  it("answers the redirect with a page saying the tab can be closed, hands over the URL, and stops", async () => {
    const listener = await listenForRedirect();
    expect(listener.redirectUri).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${CALLBACK_PATH}$`));
    expect((await fetch(new URL("/other", listener.redirectUri))).status).toBe(404);
    const arrived = listener.callback(new AbortController().signal);
    const page = await fetch(`${listener.redirectUri}?code=c&state=s`);
    expect(await page.text()).toContain("You can close this tab.");
    expect((await arrived).searchParams.get("code")).toBe("c");
    await expect(fetch(listener.redirectUri)).rejects.toThrow();
  });

  it("gives up when the sign-in is abandoned", async () => {
    const listener = await listenForRedirect();
    const controller = new AbortController();
    const waiting = listener.callback(controller.signal);
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    await listener.close();
  });
});

/** Listens on 127.0.0.1:`port` (0: any) until the test ends; resolves the port, or the listen error. */
async function occupy(port: number): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

/** A port free right now on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("signIn", () => {
  it("opens no redirect listener before a sign-in needs one", async () => {
    const configDir = await mkdtemp(join(tmpdir(), "tsmcp-signin-"));
    const port = await occupy(0);
    // The --callback-port is taken: a command that needs no sign-in is not stopped by it.
    const taken = await signIn(
      { configDir, callbackPort: String(port) },
      new URL("http://127.0.0.1:1/mcp"),
      "interactive",
      () => {},
    );
    await taken.close();
    // Nor does it hold the port it would listen on.
    const free = await freePort();
    const auth = await signIn(
      { configDir, callbackPort: String(free) },
      new URL("http://127.0.0.1:1/mcp"),
      "login",
      () => {},
    );
    await expect(occupy(free)).resolves.toBe(free);
    await auth.close();
  });
});
