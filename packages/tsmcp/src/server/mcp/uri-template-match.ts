/**
 * Matching a URI against a compiled URI template (`uri-template.ts`) without backtracking: the
 * template is a list of steps (literals, variables, a trailing query), and a match takes time
 * linear in the URI's length, whatever the URI (it comes from the client). Spec: RFC 6570.
 */

/** A set of ASCII characters: a lookup table by character code. */
export type CharClass = Uint8Array;

/** The class of the characters of `chars` (ASCII only). */
export function charClass(chars: string): CharClass {
  const table = new Uint8Array(128);
  for (const char of chars) table[char.charCodeAt(0)] = 1;
  return table;
}

/**
 * One step of a compiled template: literal text; a variable — one or more characters of its
 * class, or, with a `prefix` (`/`, `.`, `#`), either nothing or the prefix and zero or more; or the
 * query part that ends the template (`?...` or `&...`, up to the end, without `#`).
 */
export type Step =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "variable"; readonly chars: CharClass; readonly prefix: string | undefined }
  | { readonly kind: "query"; readonly lead: "?" | "&" };

/** The raw text a URI gives each variable step (undefined when absent) and the query part. */
export interface StepMatch {
  readonly values: (string | undefined)[];
  readonly query: string | undefined;
}

const HEX_DIGIT = charClass("0123456789ABCDEFabcdef");

/** The length of the character of `chars` or the `%XX` octet at `index`, or 0 when neither is there. */
function unitAt(text: string, index: number, chars: CharClass): number {
  const code = text.charCodeAt(index);
  if (code < 128 && chars[code] === 1) return 1;
  if (code !== 0x25) return 0;
  const high = text.charCodeAt(index + 1);
  const low = text.charCodeAt(index + 2);
  return high < 128 && HEX_DIGIT[high] === 1 && low < 128 && HEX_DIGIT[low] === 1 ? 3 : 0;
}

/**
 * The end of the longest run of `chars` from `start` after which the rest matches (`start` itself
 * counts when `empty`), or -1; `rest[offset + p] === 1` when the rest matches from `p`.
 */
function longestRun(
  uri: string,
  start: number,
  chars: CharClass,
  rest: Uint8Array,
  offset: number,
  empty: boolean,
): number {
  let best = empty && rest[offset + start] === 1 ? start : -1;
  for (let at = start, unit = unitAt(uri, at, chars); unit > 0; unit = unitAt(uri, at, chars)) {
    at += unit;
    if (rest[offset + at] === 1) best = at;
  }
  return best;
}

/**
 * Matches `uri` against `steps` without backtracking. First, right to left, which positions each
 * step can start at with the rest of the URI matching the steps after it; then, left to right,
 * each variable takes the longest text that leaves a match for the rest, and an optional one is
 * present whenever it can be. These are the captures a backtracking regular expression with greedy
 * quantifiers would give, in time linear in the URI's length (times the number of steps).
 */
export function matchSteps(steps: readonly Step[], uri: string): StepMatch | undefined {
  const first = steps[0];
  if (first?.kind === "literal" && !uri.startsWith(first.text)) return undefined;
  const length = uri.length;
  const width = length + 1;
  const lastHash = uri.lastIndexOf("#");
  // Row k (k <= steps.length): table[k * width + p] === 1 when steps k.. match uri.slice(p). The
  // row after them is scratch: where a variable's run of one or more characters from p can end.
  const table = new Uint8Array((steps.length + 2) * width);
  const run = (steps.length + 1) * width;
  table[steps.length * width + length] = 1;
  for (let k = steps.length - 1; k >= 0; k--) {
    const step = steps[k] as Step;
    const here = k * width;
    const rest = here + width;
    if (step.kind === "literal") {
      const size = step.text.length;
      for (let p = uri.indexOf(step.text); p !== -1; p = uri.indexOf(step.text, p + 1)) {
        if (table[rest + p + size] === 1) table[here + p] = 1;
      }
    } else if (step.kind === "query") {
      table[here + length] = 1;
      for (let p = uri.indexOf(step.lead, lastHash + 1); p !== -1; p = uri.indexOf(step.lead, p + 1)) {
        table[here + p] = 1;
      }
    } else {
      // A required variable's row is its run; an optional one's is built from the scratch run.
      const { prefix } = step;
      const into = prefix === undefined ? here : run;
      table[into + length] = 0;
      for (let p = length - 1; p >= 0; p--) {
        const unit = unitAt(uri, p, step.chars);
        table[into + p] = unit > 0 && (table[rest + p + unit] === 1 || table[into + p + unit] === 1) ? 1 : 0;
      }
      if (prefix !== undefined) {
        for (let p = 0; p <= length; p++) {
          const start = p + prefix.length;
          if (
            table[rest + p] === 1 ||
            ((table[rest + start] === 1 || table[run + start] === 1) && uri.startsWith(prefix, p))
          ) {
            table[here + p] = 1;
          }
        }
      }
    }
  }
  if (table[0] !== 1) return undefined;

  const values: (string | undefined)[] = [];
  let query: string | undefined;
  let at = 0;
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k] as Step;
    const rest = (k + 1) * width;
    if (step.kind === "literal") {
      at += step.text.length;
    } else if (step.kind === "query") {
      if (at < length) query = uri.slice(step.lead === "?" ? at + 1 : at);
      at = length;
    } else if (step.prefix === undefined) {
      const end = longestRun(uri, at, step.chars, table, rest, false);
      values.push(uri.slice(at, end));
      at = end;
    } else {
      const start = at + step.prefix.length;
      const end = uri.startsWith(step.prefix, at)
        ? longestRun(uri, start, step.chars, table, rest, true)
        : -1;
      if (end === -1) {
        values.push(undefined);
      } else {
        values.push(uri.slice(start, end));
        at = end;
      }
    }
  }
  return { values, query };
}
