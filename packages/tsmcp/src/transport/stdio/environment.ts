/**
 * The environment a stdio server process starts with: a short list of variables inherited from
 * this process (enough to find programs and a home directory), never the whole environment, so
 * secrets in ours do not leak into a server we spawn; the caller adds what the server needs.
 * Spec: basic/transports/stdio, basic/authorization (stdio takes credentials from the environment).
 */

/** Variables a spawned server inherits from this process by default, on this platform. */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = Object.freeze(
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PATHEXT",
        "PROCESSOR_ARCHITECTURE",
        "PROGRAMFILES",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"],
);

/**
 * The inherited part of a spawned server's environment: each of {@link DEFAULT_INHERITED_ENV_VARS}
 * that is set here, except values that look like exported shell functions (starting with "()").
 * Returns a new object.
 */
export function defaultInheritedEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    const value = process.env[name];
    if (value === undefined || value.startsWith("()")) continue;
    env[name] = value;
  }
  return env;
}
