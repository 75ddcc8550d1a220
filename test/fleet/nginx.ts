/**
 * nginx for the fleet run: found on the PATH or in /usr/sbin, installed from Debian's packages when
 * missing (as root, or through passwordless sudo), and run in the foreground with its own prefix,
 * configuration, logs and temp paths in a scratch directory. No system configuration is read or
 * touched.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** The nginx binary, or undefined when none is installed. */
function findNginx(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  if (onPath !== "") return onPath;
  return ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].find((path) => existsSync(path));
}

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: ["ignore", "inherit", "inherit"] });
  return result.status === 0;
}

/**
 * The nginx binary, installing Debian's `nginx` package first when there is none.
 *
 * @throws Error saying what to do when nginx is missing and cannot be installed here.
 */
export function ensureNginx(): string {
  const found = findNginx();
  if (found !== undefined) return found;
  const asRoot = process.getuid?.() === 0;
  const sudo = !asRoot && spawnSync("sudo", ["-n", "true"]).status === 0;
  if (!(asRoot || sudo)) {
    throw new Error(
      "fleet: nginx is not installed, and installing it needs root or passwordless sudo. " +
        "Install it (Debian/Ubuntu: apt-get install -y nginx) and run npm run test:fleet again.",
    );
  }
  const apt = (args: string[]) => (asRoot ? run("apt-get", args) : run("sudo", ["-n", "apt-get", ...args]));
  console.log("fleet: installing nginx from Debian's packages (apt-get install -y nginx)");
  const env = ["-o", "Dpkg::Use-Pty=0", "-q"];
  if (
    !apt([...env, "install", "-y", "nginx"]) &&
    !(apt([...env, "update"]) && apt([...env, "install", "-y", "nginx"]))
  ) {
    throw new Error("fleet: apt-get install -y nginx failed (see its output above)");
  }
  const installed = findNginx();
  if (installed === undefined) throw new Error("fleet: nginx was installed but its binary is not found");
  return installed;
}

/** A running nginx: its stderr (error log) lines so far, and how to stop it. */
export interface RunningNginx {
  readonly errorLog: string[];
  stop(): Promise<void>;
}

/**
 * Writes a main configuration around `httpInclude` (a file for the http context) into `dir` and
 * runs nginx in the foreground on it; resolves once its worker has started (the listening sockets
 * are bound before that). Checks the configuration with `nginx -t` first.
 *
 * @throws Error with nginx's own message when the configuration is refused or nginx exits early.
 */
export async function startNginx(binary: string, dir: string, httpInclude: string): Promise<RunningNginx> {
  // Workers of a root master run as nobody: they must be able to enter the scratch directory.
  chmodSync(dir, 0o755);
  const main = join(dir, "nginx.conf");
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  writeFileSync(
    main,
    [
      "worker_processes 1;",
      "daemon off;",
      `pid ${join(dir, "nginx.pid")};`,
      "error_log stderr notice;",
      "events { worker_connections 1024; }",
      "http {",
      `  access_log ${join(dir, "access.log")};`,
      `  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}`,
      `  include ${httpInclude};`,
      "}",
      "",
    ].join("\n"),
  );
  const args = ["-p", dir, "-e", "stderr", "-c", main];
  const check = spawnSync(binary, [...args, "-t"], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`fleet: nginx refused the configuration:\n${check.stderr}`);
  const child: ChildProcess = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
  const errorLog: string[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on("line", (line) => {
      errorLog.push(line);
      appendFileSync(join(dir, "error.log"), `${line}\n`);
      if (line.includes("start worker process")) resolve();
    });
    void exited.then(() => reject(new Error(`fleet: nginx exited at start:\n${errorLog.join("\n")}`)));
  });
  return {
    errorLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
      await exited;
    },
  };
}

/**
 * The configuration `template` (a file of `examples/fleet/`) with its ports replaced: each port of
 * `templatePorts` by the port of the same name in `ports`.
 *
 * @throws Error when the template no longer mentions one of the ports.
 */
export function configFrom<Name extends string>(
  template: string,
  templatePorts: Record<Name, number>,
  ports: Record<Name, number>,
): string {
  let text = readFileSync(template, "utf8");
  for (const [name, templatePort] of Object.entries(templatePorts) as [Name, number][]) {
    const pattern = new RegExp(`\\b${templatePort}\\b`, "g");
    if (!pattern.test(text)) throw new Error(`${template} no longer mentions port ${templatePort}`);
    text = text.replace(pattern, String(ports[name]));
  }
  return text;
}
