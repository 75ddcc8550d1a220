/**
 * A program the tests need from a Debian package: found on the PATH or at known paths, installed
 * with `apt-get install -y --no-install-recommends <package>` when missing (as root, or through
 * passwordless sudo; `apt-get update` first when the install fails). When it cannot be installed,
 * it throws: the tests that need it fail rather than skip.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** What {@link ensureDebianProgram} looks for and installs. */
export interface DebianProgram {
  /** The command name looked up on the PATH (`chromium`). */
  readonly command: string;
  /** Absolute paths tried after the PATH (`/usr/bin/chromium`). */
  readonly paths: readonly string[];
  /** The Debian package providing it (`chromium`). */
  readonly package: string;
}

function find(program: DebianProgram): string | undefined {
  const onPath = spawnSync("sh", ["-c", `command -v ${program.command}`], { encoding: "utf8" }).stdout.trim();
  if (onPath !== "") return onPath;
  return program.paths.find((path) => existsSync(path));
}

function run(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: ["ignore", "inherit", "inherit"] }).status === 0;
}

/**
 * The program's path, installing its Debian package first when it is missing.
 *
 * @throws Error saying what to do when it is missing and cannot be installed here.
 */
export function ensureDebianProgram(program: DebianProgram): string {
  const found = find(program);
  if (found !== undefined) return found;
  const install = `apt-get install -y ${program.package}`;
  const asRoot = process.getuid?.() === 0;
  const sudo = !asRoot && spawnSync("sudo", ["-n", "true"]).status === 0;
  if (!(asRoot || sudo)) {
    throw new Error(
      `${program.command} is not installed, and installing it needs root or passwordless sudo. ` +
        `Install it (Debian/Ubuntu: ${install}) and run the tests again.`,
    );
  }
  const apt = (args: string[]) => (asRoot ? run("apt-get", args) : run("sudo", ["-n", "apt-get", ...args]));
  console.log(`installing ${program.command} from Debian's packages (${install})`);
  // Waits for another apt-get holding the dpkg lock instead of failing at once.
  const env = ["-o", "Dpkg::Use-Pty=0", "-o", "DPkg::Lock::Timeout=600", "-q"];
  const installArgs = [...env, "install", "-y", "--no-install-recommends", program.package];
  if (!apt(installArgs) && !(apt([...env, "update"]) && apt(installArgs))) {
    throw new Error(`${install} failed (see its output above)`);
  }
  const installed = find(program);
  if (installed === undefined)
    throw new Error(`${program.package} was installed but ${program.command} is not found`);
  return installed;
}
