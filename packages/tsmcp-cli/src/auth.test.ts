import { mkdtemp } from "node:fs/promises";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { HttpClientTransport } from "tsmcp/transport";
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
    const arrived = listener.callback(new AbortController().signal, "s");
    const page = await fetch(`${listener.redirectUri}?code=c&state=s`);
    expect(await page.text()).toContain("You can close this tab.");
    expect((await arrived).searchParams.get("code")).toBe("c");
    await expect(fetch(listener.redirectUri)).rejects.toThrow();
  });

  it("gives up when the sign-in is abandoned", async () => {
    const listener = await listenForRedirect();
    const controller = new AbortController();
    const waiting = listener.callback(controller.signal, "s");
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

/**
 * A protected resource and its authorization server on 127.0.0.1, scripted: Dynamic Client
 * Registration open, and the authorization endpoint redirects at once with a code and the state.
 * While the client registers, a local process (the test) hits the redirect URI it registers with a
 * forged authorization response. Resolves the MCP endpoint and what the forged hit got.
 */
async function scriptedServers(): Promise<{ url: URL; forged: Promise<number> }> {
  let origin = "";
  let reportForged: (status: number) => void = () => {};
  const forged = new Promise<number>((resolve) => {
    reportForged = resolve;
  });
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const route = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const at = new URL(req.url ?? "/", origin);
    switch (at.pathname) {
      case "/mcp":
        if (req.headers.authorization === "Bearer at-1")
          return json(res, 200, { jsonrpc: "2.0", id: 1, result: {} });
        return res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` }).end();
      case "/prm":
        return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      case "/.well-known/oauth-authorization-server":
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      case "/register": {
        const [redirectUri] = (JSON.parse(body) as { redirect_uris: string[] }).redirect_uris;
        const hit = await fetch(`${redirectUri}?code=forged&state=forged`).catch(() => undefined);
        await hit?.body?.cancel();
        reportForged(hit?.status ?? 0);
        return json(res, 201, { client_id: "registered", token_endpoint_auth_method: "none" });
      }
      case "/authorize": {
        const back = new URL(at.searchParams.get("redirect_uri") as string);
        back.searchParams.set("code", "code-1");
        back.searchParams.set("state", at.searchParams.get("state") as string);
        return res.writeHead(302, { location: back.href }).end();
      }
      case "/token":
        return json(res, 200, { access_token: "at-1", token_type: "Bearer", expires_in: 3600 });
      default:
        return res.writeHead(404).end();
    }
  };
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => void route(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: new URL(`${origin}/mcp`), forged };
}

describe("signIn's redirect listener", () => {
  it("refuses a forged redirect that arrives during client registration, then takes the real one", async () => {
    const { url, forged } = await scriptedServers();
    const configDir = await mkdtemp(join(tmpdir(), "tsmcp-signin-"));
    const pages: Promise<number>[] = [];
    // The browser without a person: loads the printed authorization URL and follows its redirect.
    const note = (text: string) => {
      const printed = /^ {2}(\S+)$/m.exec(text)?.[1];
      if (printed === undefined) return;
      pages.push(
        fetch(printed, { redirect: "manual" }).then(async (response) => {
          const back = await fetch(response.headers.get("location") as string);
          await back.body?.cancel();
          return back.status;
        }),
      );
    };
    const auth = await signIn({ configDir, open: false }, url, "login", note);
    onTestFinished(() => auth.close());
    const transport = new HttpClientTransport(url, { auth: auth.auth });
    onTestFinished(() => transport.close());
    const response = await transport.request({ jsonrpc: "2.0", id: 1, method: "ping", params: {} });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await forged).toBe(400);
    expect(await Promise.all(pages)).toEqual([200]);
  });
});
