/**
 * What the benchmarks ran on: CPU model and cores, memory, Node.js and OS versions, and the load
 * average (a busy machine skews absolute numbers; ratios from one run suffer less).
 */
import { cpus, loadavg, release, totalmem, type } from "node:os";

/** The machine a run was measured on. */
export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
  readonly loadAverage1m: number;
}

/** Reads the machine's description now. */
export function describeMachine(): Machine {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? "unknown CPU",
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${type()} ${release()}`,
    loadAverage1m: loadavg()[0] ?? Number.NaN,
  };
}

/** One line: `AMD EPYC, 2 cores, 24 GiB, Node v20.20.2, Linux 6.1 (load 1.23)`. */
export function formatMachine(machine: Machine): string {
  return (
    `${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ` +
    `${machine.os} (1-minute load average ${machine.loadAverage1m.toFixed(2)})`
  );
}
