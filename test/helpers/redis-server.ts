/**
 * A real `redis-server` for the tests of the Redis state stores: found on the PATH or in /usr/bin,
 * installed from Debian's `redis-server` package when missing (as root, or through passwordless
 * sudo), and run in the foreground on a free 127.0.0.1 port with no persistence and a scratch
 * directory of its own. No system configuration is read or touched. When it cannot be installed or
 * started, the calls throw: the tests that need it fail rather than skip.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** The redis-server binary, or undefined when none is installed. */
function findRedisServer(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
  if (onPath !== "") return onPath;
  return ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((path) => existsSync(path));
}

function run(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: ["ignore", "inherit", "inherit"] }).status === 0;
}

/**
 * The redis-server binary, installing Debian's `redis-server` package first when there is none.
 *
 * @throws Error saying what to do when redis-server is missing and cannot be installed here.
 */
export function ensureRedisServer(): string {
  const found = findRedisServer();
  if (found !== undefined) return found;
  const asRoot = process.getuid?.() === 0;
  const sudo = !asRoot && spawnSync("sudo", ["-n", "true"]).status === 0;
  if (!(asRoot || sudo)) {
    throw new Error(
      "redis-server is not installed, and installing it needs root or passwordless sudo. " +
        "Install it (Debian/Ubuntu: apt-get install -y redis-server) and run the tests again.",
    );
  }
  const apt = (args: string[]) => (asRoot ? run("apt-get", args) : run("sudo", ["-n", "apt-get", ...args]));
  console.log("installing redis-server from Debian's packages (apt-get install -y redis-server)");
  // Waits for another apt-get holding the dpkg lock instead of failing at once.
  const env = ["-o", "Dpkg::Use-Pty=0", "-o", "DPkg::Lock::Timeout=600", "-q"];
  if (
    !apt([...env, "install", "-y", "--no-install-recommends", "redis-server"]) &&
    !(apt([...env, "update"]) && apt([...env, "install", "-y", "--no-install-recommends", "redis-server"]))
  ) {
    throw new Error("apt-get install -y redis-server failed (see its output above)");
  }
  const installed = findRedisServer();
  if (installed === undefined) throw new Error("redis-server was installed but its binary is not found");
  return installed;
}

/** A port that was free on 127.0.0.1 a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP address for a free port");
  return address.port;
}

/** A running redis-server. */
export interface RedisServer {
  /** Its TCP port on 127.0.0.1. */
  readonly port: number;
  /** `redis://127.0.0.1:{port}`. */
  readonly url: string;
  /** Its output so far, one line an entry. */
  readonly output: string[];
  /** Kills it (SIGKILL, by PID) and resolves once it exited. Idempotent. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after {@link RedisServer.stop}); resolves once it accepts connections. */
  restart(): Promise<void>;
  /** Stops it and removes its scratch directory (not a `dir` it was given). */
  close(): Promise<void>;
}

interface Running {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface RedisServerOptions {
  /**
   * Keep every write in an append-only file (`--appendonly yes --appendfsync always`), so a
   * `restart()` after a kill finds the data again. Default false: no persistence at all.
   */
  readonly persistent?: boolean;
  /** The server's `--dir` (created when missing, kept on close). Default a scratch directory, removed on close. */
  readonly dir?: string;
}

/** Runs `binary` on `port` in `dir`; resolves once it logs that it accepts connections. */
async function launch(
  binary: string,
  port: number,
  dir: string,
  output: string[],
  persistent: boolean,
): Promise<Running> {
  const persistence = persistent
    ? ["--appendonly", "yes", "--appendfsync", "always"]
    : ["--appendonly", "no"];
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence];
  const child = spawn(binary, [...args, "--dir", dir, "--logfile", ""], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on("line", (line) => {
        output.push(line);
        if (line.includes("Ready to accept connections")) resolve();
      });
    }
    void exited.then(() =>
      reject(new Error(`redis-server exited at start (port ${port}):\n${output.slice(-20).join("\n")}`)),
    );
  });
  return { child, exited };
}

/**
 * Starts a redis-server (installing it first when missing) on a free 127.0.0.1 port, with no
 * persistence (`--save "" --appendonly no`, unless `persistent`) and a scratch `--dir` of its own
 * (unless `dir`).
 *
 * @throws Error when redis-server cannot be installed or started.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = ensureRedisServer();
  const scratch = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "tsmcp-redis-"));
  if (!scratch) mkdirSync(dir, { recursive: true });
  const persistent = options.persistent ?? false;
  const output: string[] = [];
  let port = 0;
  let running: Running | undefined;
  // The free port may be taken between the probe and the bind: try a few.
  for (let attempt = 1; running === undefined; attempt++) {
    port = await freePort();
    try {
      running = await launch(binary, port, dir, output, persistent);
    } catch (error) {
      if (attempt >= 3) {
        if (scratch) rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const stop = async (): Promise<void> => {
    const current = running;
    if (current === undefined) return;
    running = undefined;
    if (current.child.exitCode === null && current.child.signalCode === null) {
      process.kill(current.child.pid!, "SIGKILL");
    }
    await current.exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    output,
    stop,
    async restart() {
      await stop();
      running = await launch(binary, port, dir, output, persistent);
    },
    async close() {
      await stop();
      if (scratch) rmSync(dir, { recursive: true, force: true });
    },
  };
}
