/**
 * The Redis of the benchmarks that keep sessions in Redis: a `redis-server` of its own on a free
 * 127.0.0.1 port with no persistence (`test/helpers/redis-server.ts`, which installs it from
 * Debian's packages when missing), and the CPU time it has used, read with `INFO cpu`.
 */
import { connect } from "node:net";
import { type RedisServer, startRedisServer } from "../../test/helpers/redis-server.js";

/** A running benchmark Redis. */
export interface BenchRedis {
  /** `redis://127.0.0.1:{port}`. */
  readonly url: string;
  /** CPU time the server has used so far (user + system, all threads), in microseconds. */
  cpuUs(): Promise<number>;
  /** Stops it (by PID) and removes its scratch directory. */
  close(): Promise<void>;
}

/** How long `INFO cpu` may take before the read fails. */
const INFO_TIMEOUT_MS = 5_000;

/** Sends the inline command `INFO cpu` to `port` and resolves with the reply's text. */
function infoCpu(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(INFO_TIMEOUT_MS, () =>
      fail(new Error(`redis INFO cpu: no reply in ${INFO_TIMEOUT_MS} ms`)),
    );
    socket.once("error", fail);
    socket.on("data", (chunk) => {
      reply += chunk.toString("latin1");
      // A bulk string: `$<length>\r\n<text>\r\n`.
      const header = /^\$(\d+)\r\n/.exec(reply);
      if (header === null) {
        if (!reply.startsWith("$") && reply.includes("\r\n")) fail(new Error(`redis INFO cpu: ${reply}`));
        return;
      }
      const length = Number(header[1]);
      if (reply.length < header[0].length + length) return;
      socket.end();
      resolve(reply.slice(header[0].length, header[0].length + length));
    });
    socket.write("INFO cpu\r\n");
  });
}

/** The `used_cpu_user` + `used_cpu_sys` of an `INFO cpu` reply, in microseconds. */
function usedCpuUs(info: string): number {
  const field = (name: string) => {
    const match = new RegExp(`^${name}:([0-9.]+)`, "m").exec(info);
    if (match === null) throw new Error(`redis INFO cpu has no ${name}`);
    return Number(match[1]) * 1e6;
  };
  return field("used_cpu_user") + field("used_cpu_sys");
}

/** Starts the benchmark Redis. @throws Error when redis-server cannot be installed or started. */
export async function startBenchRedis(): Promise<BenchRedis> {
  const server: RedisServer = await startRedisServer();
  return {
    url: server.url,
    cpuUs: async () => usedCpuUs(await infoCpu(server.port)),
    close: () => server.close(),
  };
}
