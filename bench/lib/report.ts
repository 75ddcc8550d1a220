/**
 * The one table `npm run bench` prints: a row per measure with the absolute value for tsmcp, the
 * official SDK and the floor, the ratios tsmcp/official and tsmcp/floor, and the goal the row is
 * judged against (issue 7). Ratios are of the measure as printed; the goal text says which way is
 * better.
 */

/** Who a column measures. */
export type Column = "tsmcp" | "official" | "floor";

/**
 * A goal a row is judged against: `value` picks the number the goal is about (a ratio such as
 * tsmcp/floor, or tsmcp's own value), `check` says whether it is met, and `format` writes it into
 * the verdict (`met (1.21x)`).
 */
export interface Goal {
  readonly text: string;
  readonly value: (row: Row) => number | undefined;
  readonly check: (value: number) => boolean;
  readonly format: (value: number) => string;
}

/** Who a ratio goal compares tsmcp with. */
export type Baseline = "floor" | "official";

const formatGoalRatio = (value: number) => `${value.toFixed(2)}x`;

/** A goal met when `ratioOf(row)` (tsmcp over `baseline`) is at most `limit`. */
export function atMost(limit: number, baseline: Baseline, ratioOf: (row: Row) => number | undefined): Goal {
  return {
    text: `<= ${limit}x ${baseline}`,
    value: ratioOf,
    check: (value) => value <= limit,
    format: formatGoalRatio,
  };
}

/** A goal met when `ratioOf(row)` (tsmcp over `baseline`) is at least `limit`. */
export function atLeast(limit: number, baseline: Baseline, ratioOf: (row: Row) => number | undefined): Goal {
  return {
    text: `>= ${limit}x ${baseline}`,
    value: ratioOf,
    check: (value) => value >= limit,
    format: formatGoalRatio,
  };
}

/** One row of the table. */
export interface Row {
  /** The stage, 1-12. */
  readonly stage: number;
  readonly measure: string;
  readonly unit: string;
  readonly tsmcp?: number | undefined;
  readonly official?: number | undefined;
  readonly floor?: number | undefined;
  readonly goal?: Goal;
  /** A note printed under the table, keyed to the row. */
  readonly note?: string;
}

/** `a / b`, or `undefined` when either is missing or `b` is zero. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || b === undefined || b === 0 || !Number.isFinite(a) || !Number.isFinite(b)) {
    return undefined;
  }
  return a / b;
}

/** tsmcp / official for a row. */
export function vsOfficial(row: Row): number | undefined {
  return ratio(row.tsmcp, row.official);
}

/** tsmcp / floor for a row. */
export function vsFloor(row: Row): number | undefined {
  return ratio(row.tsmcp, row.floor);
}

function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return "—";
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString("en-US");
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function formatRatio(value: number | undefined): string {
  return value === undefined ? "—" : `${value.toFixed(2)}x`;
}

/** The verdict of a row's goal: "met", "MISSED", or "" without a goal or with missing data. */
export function verdict(row: Row): "met" | "MISSED" | "" {
  const value = judgedValue(row);
  if (value === undefined || row.goal === undefined) return "";
  return row.goal.check(value) ? "met" : "MISSED";
}

/** The number a row's goal judges, or `undefined` without a goal or with missing data. */
export function judgedValue(row: Row): number | undefined {
  const value = row.goal?.value(row);
  return value === undefined || !Number.isFinite(value) ? undefined : value;
}

/** The verdict with the value it judged, as the table prints it: `met (0.72x)`, `MISSED (1.59x)`. */
export function verdictText(row: Row): string {
  const outcome = verdict(row);
  const value = judgedValue(row);
  return outcome === "" || value === undefined || row.goal === undefined
    ? outcome
    : `${outcome} (${row.goal.format(value)})`;
}

/** Renders the rows as one Markdown table. */
export function renderTable(rows: readonly Row[]): string {
  const header = [
    "#",
    "measure",
    "unit",
    "tsmcp",
    "official",
    "floor",
    "tsmcp/official",
    "tsmcp/floor",
    "goal",
    "verdict",
  ];
  const lines = [
    `| ${header.join(" | ")} |`,
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
  ];
  for (const row of rows) {
    const cells = [
      String(row.stage),
      row.measure,
      row.unit,
      formatNumber(row.tsmcp),
      formatNumber(row.official),
      formatNumber(row.floor),
      formatRatio(vsOfficial(row)),
      formatRatio(vsFloor(row)),
      row.goal?.text ?? "",
      verdictText(row),
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  const notes = rows.filter((row) => row.note !== undefined);
  if (notes.length > 0) {
    lines.push("");
    for (const row of notes) lines.push(`- ${row.measure}: ${row.note}`);
  }
  return lines.join("\n");
}
