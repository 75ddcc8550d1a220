/**
 * The regular-expression engine for raw JSON Schema `pattern`, `patternProperties` and
 * `propertyNames`: RE2 (re2js, pure JavaScript), which matches in time linear in the input, so a
 * pattern such as `^(a+)+$` cannot stall the event loop on a crafted argument. A pattern is first
 * checked as an ECMA-262 regular expression (the dialect JSON Schema specifies), then translated to
 * RE2 syntax; one RE2 cannot express (backreferences, lookahead, lookbehind) is refused when the
 * schema compiles. Spec: basic/index §JSON Schema Usage.
 */
import type { RegExpEngine, RegExpLike } from "ajv/dist/types/index.js";
import { RE2JS } from "re2js";

/**
 * Compiles `pattern` (with ajv's `u` flag, or none) for linear-time matching. `test(s)` answers
 * whether the pattern matches anywhere in `s`, as `RegExp.prototype.test` does.
 *
 * @throws SyntaxError when `pattern` is not a valid ECMA-262 regular expression (as ajv's default
 *   engine does), TypeError naming the pattern when RE2 cannot express it.
 */
function compileLinear(pattern: string, flags: string): RegExpLike {
  // Compiling (never executing) a native RegExp keeps the ECMA-262 syntax checks ajv applies today.
  new RegExp(pattern, flags);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    throw new TypeError(
      `the pattern ${JSON.stringify(pattern)} cannot be evaluated in linear time ` +
        `(backreferences and lookaround are not supported): ${(error as Error).message}`,
      { cause: error },
    );
  }
  // ajv deduplicates compiled patterns by their string form, so it must differ per pattern.
  const source = `/${pattern}/${flags}`;
  const linear: RegExpLike & { toString(): string } = {
    test: (input) => compiled.test(input),
    toString: () => source,
  };
  return linear;
}

/**
 * ajv's `code.regExp` option: every pattern a compiled schema evaluates goes through RE2.
 * (`code` names the engine for ajv's standalone code generation, which tsmcp does not use.)
 */
export const linearRegExp: RegExpEngine = Object.assign(compileLinear, {
  code: 'require("re2js").RE2JS',
});
