/**
 * The loopback redirect listener takes only its flow's authorization response: a request that is
 * not one (a target that is not a URL, no `state`, another `state`, neither `code` nor `error`), or
 * one that comes before the flow armed the listener with its `state`, is answered 400 and the
 * listener keeps waiting for the real redirect. Any local process can reach the port.
 * Spec: RFC 8252 §7.3, §8.9; RFC 6749 §4.1.2, §10.12.
 */
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { listenForRedirect } from "./loopback.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Sends `GET <target>` as it is (fetch would normalise it); resolves the status line. */
function rawGet(port: number, target: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let out = "";
    socket.on("data", (data) => {
      out += String(data);
    });
    socket.on("close", () => resolve(out.split("\r\n")[0] ?? ""));
    socket.on("error", (error) => resolve(`error ${error.message}`));
  });
}

describe("the loopback redirect listener", () => {
  it("answers 400 to a request target that is not a URL, and keeps listening", async () => {
    // In a process of its own: an exception in the request handler would end the process.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { listenForRedirect } = await import("./packages/tsmcp-cli/src/loopback.ts");
         const listener = await listenForRedirect();
         console.log(new URL(listener.redirectUri).port);
         const url = await listener.callback(new AbortController().signal, "s");
         console.log("delivered " + url.searchParams.get("state"));`,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    onTestFinished(() => {
      child.kill("SIGKILL");
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (data) => {
      err += String(data);
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const port = await new Promise<number>((resolve) =>
      child.stdout.on("data", (data) => {
        out += String(data);
        if (out.includes("\n")) resolve(Number(out.split("\n")[0]));
      }),
    );
    expect(await rawGet(port, "http://[/callback")).toBe("HTTP/1.1 400 Bad Request");
    expect(await rawGet(port, "/callback?code=c&state=s")).toBe("HTTP/1.1 200 OK");
    expect(await exited, err).toBe(0);
    expect(out).toContain("delivered s");
  }, 20_000);

  it("answers 400 to a hit on /callback that is no authorization response, then takes the real one", async () => {
    const listener = await listenForRedirect();
    const port = Number(new URL(listener.redirectUri).port);
    const arrived = listener.callback(new AbortController().signal, "s");
    // A port scan, a prefetch or a forged hit arrives first...
    expect(await rawGet(port, "/callback")).toBe("HTTP/1.1 400 Bad Request");
    expect(await rawGet(port, "/callback?code=c")).toBe("HTTP/1.1 400 Bad Request");
    expect(await rawGet(port, "/callback?state=s")).toBe("HTTP/1.1 400 Bad Request");
    // ...then the real redirect.
    expect(await rawGet(port, "/callback?code=c&state=s")).toBe("HTTP/1.1 200 OK");
    expect((await arrived).searchParams.get("state")).toBe("s");
    await listener.close();
  });

  it("with the expected state, answers 400 to another state and takes an error response with it", async () => {
    const listener = await listenForRedirect();
    const port = Number(new URL(listener.redirectUri).port);
    const arrived = listener.callback(new AbortController().signal, "expected");
    expect(await rawGet(port, "/callback?code=c&state=forged")).toBe("HTTP/1.1 400 Bad Request");
    expect(await rawGet(port, "/callback?error=access_denied&state=expected")).toBe("HTTP/1.1 200 OK");
    expect((await arrived).searchParams.get("error")).toBe("access_denied");
    await listener.close();
  });

  it("takes nothing before its flow arms it: an early hit is refused and the real redirect still arrives", async () => {
    const listener = await listenForRedirect();
    const port = Number(new URL(listener.redirectUri).port);
    // A well-formed response forged before the flow knows its state (during registration, say).
    expect(await rawGet(port, "/callback?code=forged&state=forged")).toBe("HTTP/1.1 400 Bad Request");
    const arrived = listener.callback(new AbortController().signal, "real");
    expect(await rawGet(port, "/callback?code=forged&state=forged")).toBe("HTTP/1.1 400 Bad Request");
    expect(await rawGet(port, "/callback?code=c&state=real")).toBe("HTTP/1.1 200 OK");
    const url = await arrived;
    expect(url.searchParams.get("code")).toBe("c");
    expect(url.searchParams.get("state")).toBe("real");
    await listener.close();
  });

  it("needs the flow's state to arm", async () => {
    const listener = await listenForRedirect();
    await expect(listener.callback(new AbortController().signal, "")).rejects.toThrow(TypeError);
    await listener.close();
  });
});
