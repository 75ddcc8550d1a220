/**
 * The rows of a plain call under HTTP load (stages 1 and 8): throughput, server CPU per request,
 * p50 and p99 latency, for the three columns, each row with its goal when it has one.
 */
import type { ServerLoad } from "../stages/http-load.js";
import type { Column, Goal, Row } from "./report.js";

/** The goals of the HTTP load rows, by row. */
export interface HttpRowGoals {
  readonly throughput?: Goal;
  readonly cpu?: Goal;
  readonly p99?: Goal;
}

/** What a row of one stage carries besides its numbers. */
export interface HttpRowsOf {
  readonly stage: number;
  /** The measure's name, before ": throughput" and the like. */
  readonly label: string;
  readonly goals?: HttpRowGoals;
  /** A note under the table, keyed to the throughput row. */
  readonly note?: string;
}

/** The four rows of one HTTP load measurement; `get` gives each column's load. */
export function httpLoadRows(of: HttpRowsOf, get: (column: Column) => ServerLoad | undefined): Row[] {
  const { stage, label, goals = {}, note } = of;
  const row = (measure: string, unit: string, pick: (load: ServerLoad) => number, goal?: Goal): Row => ({
    stage,
    measure: `${label}: ${measure}`,
    unit,
    tsmcp: pickOf(get("tsmcp"), pick),
    official: pickOf(get("official"), pick),
    floor: pickOf(get("floor"), pick),
    ...(goal === undefined ? {} : { goal }),
  });
  const throughput = row("throughput", "req/s", (load) => load.requestsPerSecond, goals.throughput);
  return [
    note === undefined ? throughput : { ...throughput, note },
    row("server CPU per request", "us", (load) => load.serverCpuUsPerRequest, goals.cpu),
    row("p50 latency", "ms", (load) => load.latencyMs.median),
    row("p99 latency", "ms", (load) => load.latencyMs.p99, goals.p99),
  ];
}

function pickOf(load: ServerLoad | undefined, pick: (load: ServerLoad) => number): number | undefined {
  return load === undefined ? undefined : pick(load);
}
