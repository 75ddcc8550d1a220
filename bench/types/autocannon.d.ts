/**
 * The part of autocannon 9's API the benchmarks use (the package ships no type declarations).
 * `autocannon(options)` returns a tracker: an event emitter that is also a promise of the result.
 */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  /** Options of one run. */
  interface Options {
    url: string;
    method?: "GET" | "POST";
    headers?: Record<string, string>;
    body?: string;
    /** Concurrent connections. */
    connections?: number;
    /** Requests in flight per connection. */
    pipelining?: number;
    /** Seconds to run (ignored when `amount` is set). */
    duration?: number;
    /** Total requests to send, then stop. */
    amount?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
  }

  /** Percentile statistics of one histogram. */
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p99: number;
  }

  /** The result of a run. */
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    duration: number;
  }

  /** The running load: emits `response` per answer, and resolves with the result. */
  interface Instance extends EventEmitter, PromiseLike<Result> {
    on(
      event: "response",
      listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void,
    ): this;
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
