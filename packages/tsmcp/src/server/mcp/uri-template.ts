/**
 * RFC 6570 URI templates for resource templates: parsing and reverse matching (extracting the
 * variables from a concrete URI), for the expressions MCP servers use — `{var}`,
 * `{+var}`, `{#var}`, `{/var}`, `{.var}`, `{?a,b}` and `{&a,b}`. A template is compiled once into a
 * list of steps; matching takes time linear in the URI's length, never backtracking (the URI comes
 * from the client). Spec: server/resources §Resource Templates, RFC 6570.
 */
import { type CharClass, charClass, matchSteps, type Step } from "./uri-template-match.js";

/** The operators this matcher supports (`""` is simple string expansion). */
type Operator = "" | "+" | "#" | "/" | "." | "?" | "&";

interface Expression {
  readonly operator: Operator;
  readonly names: readonly string[];
}

type Part = { readonly literal: string } | { readonly expression: Expression };

const OPERATORS = new Set<string>(["+", "#", "/", ".", "?", "&"]);
const VARNAME = /^[A-Za-z0-9_]+$/;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** The unreserved characters: what simple expansion produces, besides percent-encoded octets. */
const UNRESERVED = charClass(`${ALPHANUMERIC}-._~`);
/**
 * The unreserved and reserved characters (what `+` and `#` produce, besides percent-encoded
 * octets), less the characters in `excluded` (`?` when query expressions follow, `#` when a
 * fragment does).
 */
function reservedClass(excluded: string): CharClass {
  const chars = [...":/?#@!$&'()*+,;="].filter((char) => !excluded.includes(char)).join("");
  return charClass(`${ALPHANUMERIC}-._~[]${chars}`);
}

function decode(text: string): string | undefined {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function parseExpression(body: string, template: string): Expression {
  const first = body.charAt(0);
  const operator = (OPERATORS.has(first) ? first : "") as Operator;
  if (operator === "" && /^[;=,!@|]/.test(body)) {
    throw new TypeError(`URI template ${JSON.stringify(template)}: the operator "${first}" is not supported`);
  }
  const names = body.slice(operator.length).split(",");
  for (const name of names) {
    if (/[*:]/.test(name)) {
      throw new TypeError(
        `URI template ${JSON.stringify(template)}: value modifiers ("*", ":n") are not supported in {${body}}`,
      );
    }
    if (!VARNAME.test(name)) {
      throw new TypeError(
        `URI template ${JSON.stringify(template)}: ${JSON.stringify(name)} is not a variable name (letters, digits, _)`,
      );
    }
  }
  if (names.length > 1 && (operator === "+" || operator === "#" || operator === ".")) {
    throw new TypeError(
      `URI template ${JSON.stringify(template)}: {${body}} would be ambiguous to match; use one variable per "${operator}" expression`,
    );
  }
  return { operator, names };
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf("{");
    const close = rest.indexOf("}");
    if (close !== -1 && (open === -1 || close < open)) {
      throw new TypeError(`URI template ${JSON.stringify(template)} has an unmatched "}"`);
    }
    if (open === -1) {
      parts.push({ literal: rest });
      break;
    }
    if (open > 0) parts.push({ literal: rest.slice(0, open) });
    const end = rest.indexOf("}", open);
    if (end === -1) throw new TypeError(`URI template ${JSON.stringify(template)} has an unclosed "{"`);
    const body = rest.slice(open + 1, end);
    if (body.includes("{")) throw new TypeError(`URI template ${JSON.stringify(template)} nests "{"`);
    parts.push({ expression: parseExpression(body, template) });
    rest = rest.slice(end + 1);
  }
  return parts;
}

/**
 * One compiled RFC 6570 URI template.
 *
 * Matching is strict: a URI matches only when it is a possible expansion of the template. Simple
 * (`{id}`) and reserved (`{+path}`) variables match one or more characters (simple ones never a
 * reserved character such as `/` or `?`), the other operators' variables may be absent; query
 * variables (`{?a,b}`, `{&c}`) must come last and match in any order, and a query parameter the
 * template does not name fails the match. A reserved variable stops at `?` when query variables
 * follow, and at `#` when a fragment variable does. Values are percent-decoded.
 */
export class UriTemplate {
  /** The template text. */
  readonly template: string;
  /** Every variable name, in order of appearance. */
  readonly variableNames: readonly string[];
  readonly #parts: readonly Part[];
  readonly #steps: readonly Step[];
  /** Variable step -> variable name, for the non-query variables. */
  readonly #groups: readonly string[];
  readonly #queryNames: ReadonlySet<string>;

  /**
   * Compiles `template`.
   *
   * @throws TypeError for a malformed template (unbalanced braces, bad variable names), an
   *   unsupported operator (`;`, reserved ones) or modifier (`*`, `:n`), a variable used twice,
   *   several variables in one `+`, `#` or `.` expression, or a literal after a query expression.
   */
  constructor(template: string) {
    if (typeof template !== "string") throw new TypeError("URI template must be a string");
    this.template = template;
    this.#parts = parse(template);
    const names: string[] = [];
    const groups: string[] = [];
    const queryNames: string[] = [];
    const steps: Step[] = [];
    let queryStarted = false;
    const operators = this.#parts.flatMap((part) => ("expression" in part ? [part.expression.operator] : []));
    const excluded =
      (operators.includes("?") || operators.includes("&") ? "?" : "") + (operators.includes("#") ? "#" : "");
    const reserved = reservedClass(excluded);
    for (const part of this.#parts) {
      if ("literal" in part) {
        if (queryStarted) {
          throw new TypeError(
            `URI template ${JSON.stringify(template)}: query expressions ({?...}, {&...}) must come last`,
          );
        }
        steps.push({ kind: "literal", text: part.literal });
        continue;
      }
      const { operator, names: exprNames } = part.expression;
      for (const name of exprNames) {
        if (names.includes(name)) {
          throw new TypeError(`URI template ${JSON.stringify(template)} uses the variable "${name}" twice`);
        }
        names.push(name);
      }
      if (operator === "?" || operator === "&") {
        if (!queryStarted) steps.push({ kind: "query", lead: operator });
        queryStarted = true;
        queryNames.push(...exprNames);
        continue;
      }
      if (queryStarted) {
        throw new TypeError(
          `URI template ${JSON.stringify(template)}: query expressions ({?...}, {&...}) must come last`,
        );
      }
      exprNames.forEach((_name, index) => {
        switch (operator) {
          case "":
            if (index > 0) steps.push({ kind: "literal", text: "," });
            steps.push({ kind: "variable", chars: UNRESERVED, prefix: undefined });
            break;
          case "+":
            steps.push({ kind: "variable", chars: reserved, prefix: undefined });
            break;
          case "#":
            steps.push({ kind: "variable", chars: reserved, prefix: "#" });
            break;
          case "/":
          case ".":
            steps.push({ kind: "variable", chars: UNRESERVED, prefix: operator });
            break;
        }
      });
      groups.push(...exprNames);
    }
    this.variableNames = Object.freeze(names);
    this.#groups = groups;
    this.#queryNames = new Set(queryNames);
    this.#steps = steps;
  }

  /** True when the template has no expressions: it names exactly one URI. */
  get isStatic(): boolean {
    return this.variableNames.length === 0;
  }

  /**
   * The variables of `uri` when it is an expansion of this template, else `undefined`. Absent
   * optional variables are left out. Never throws.
   */
  match(uri: string): Record<string, string> | undefined {
    const found = matchSteps(this.#steps, uri);
    if (found === undefined) return undefined;
    const variables: Record<string, string> = {};
    for (let i = 0; i < this.#groups.length; i++) {
      const raw = found.values[i];
      if (raw === undefined) continue;
      const value = decode(raw);
      if (value === undefined) return undefined;
      variables[this.#groups[i] as string] = value;
    }
    if (this.#queryNames.size > 0) {
      const { query } = found;
      if (query !== undefined && query !== "" && !this.#readQuery(query, variables)) return undefined;
    }
    return variables;
  }

  #readQuery(query: string, variables: Record<string, string>): boolean {
    for (const pair of query.replace(/^&/, "").split("&")) {
      const equals = pair.indexOf("=");
      if (equals === -1) return false;
      const name = pair.slice(0, equals);
      if (!this.#queryNames.has(name) || Object.hasOwn(variables, name)) return false;
      const value = decode(pair.slice(equals + 1));
      if (value === undefined) return false;
      variables[name] = value;
    }
    return true;
  }
}

// ------------------------------------------------------------------ type-level variable extraction

type ExpressionsOf<T extends string> = T extends `${string}{${infer E}}${infer Rest}`
  ? E | ExpressionsOf<Rest>
  : never;
type SplitNames<S extends string> = S extends `${infer Head},${infer Rest}` ? Head | SplitNames<Rest> : S;
type OptionalOperator = "#" | "/" | "." | "?" | "&";
type RequiredNamesOf<E extends string> = E extends `+${infer Names}`
  ? SplitNames<Names>
  : E extends `${OptionalOperator}${string}`
    ? never
    : SplitNames<E>;
type OptionalNamesOf<E extends string> = E extends `${OptionalOperator}${infer Names}`
  ? SplitNames<Names>
  : never;

/**
 * The variables a URI template yields, from its literal text: `{id}` and `{+path}` give required
 * strings, `{#f}`, `{/seg}`, `{.ext}`, `{?q}` and `{&q}` optional ones; a template with no
 * expressions gives `{}`. A template typed only as `string` gives `Record<string, string | undefined>`.
 */
export type UriVariables<T extends string> = string extends T
  ? Record<string, string | undefined>
  : { [K in RequiredNamesOf<ExpressionsOf<T>>]: string } & {
      [K in OptionalNamesOf<ExpressionsOf<T>>]?: string;
    };

/** True (as a type) when the URI has no template expressions. */
export type IsStaticUri<T extends string> = string extends T
  ? boolean
  : [ExpressionsOf<T>] extends [never]
    ? true
    : false;
