/**
 * The one table `npm run bench` prints: a row per measure with the absolute value for tsmcp, the
 * official SDK and the floor, the ratios tsmcp/official and tsmcp/floor, and the goal the row is
 * judged against (issue 7). Ratios are of the measure as printed; the goal text says which way is
 * better.
 */

/** Who a column measures. */
export type Column = "tsmcp" | "official" | "floor";

/** A goal a row is judged against; `check` gets the row and says met or missed. */
export interface Goal {
  readonly text: string;
  readonly check: (row: Row) => boolean;
}

/** One row of the table. */
export interface Row {
  /** The stage, 1-11. */
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
  if (row.goal === undefined) return "";
  try {
    return row.goal.check(row) ? "met" : "MISSED";
  } catch {
    return "";
  }
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
      verdict(row),
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
