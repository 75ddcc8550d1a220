/**
 * Text from a server made safe for a terminal. A server chooses tool text, log messages, prompt
 * and resource text, elicitation messages and URLs, and error messages; written raw, their control
 * characters would drive the terminal (ECMA-48 escape and control sequences: OSC 52 writes the
 * clipboard, OSC 0 sets the title, CSI 2J clears the screen, a carriage return overwrites a line).
 * Every C0 control but line feed and tab, DEL, and every C1 control is shown as an escape instead
 * (`\x1b`, `\x9b`), so the text stays readable and nothing is hidden. So are the Unicode
 * bidirectional formatting characters (UAX #9: the embeddings and overrides U+202A-U+202E, the
 * isolates U+2066-U+2069, the marks U+200E, U+200F and U+061C), shown as `\u202e`: written raw,
 * they reorder what the terminal shows (a file "exe.txt" that is really "txt.exe", a command that
 * reads differently from what it is). So are the invisible zero-width space U+200B and the line and
 * paragraph separators U+2028 and U+2029, which a terminal shows as nothing or as a break that is
 * not a line feed. And a URL from a server goes to the platform's opener only when it is http(s).
 */

/** C0 controls but `\t` (09) and `\n` (0A), DEL (7F), and the C1 controls (80-9F). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** The bidirectional formatting characters: U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The invisible zero-width space U+200B, and the line and paragraph separators U+2028, U+2029. */
const INVISIBLE = /[\u200b\u2028\u2029]/;

/** Every character {@link safeText} escapes. */
const UNSAFE = new RegExp(`${CONTROL.source}|${BIDI.source}|${INVISIBLE.source}`, "g");

/**
 * What JSON leaves raw that {@link safeJson} escapes: DEL, the C1 controls, bidirectional
 * formatting, the invisible characters.
 */
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f]|${BIDI.source}|${INVISIBLE.source}`, "g");

/** A character as `\xHH` (up to U+00FF) or `\uHHHH`. */
function escaped(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : jsonEscaped(c);
}

/** A character as its JSON escape, `\uHHHH`. */
function jsonEscaped(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `text` with each control character but `\n` and `\t` replaced by its `\xHH` escape, and each
 * bidirectional formatting character, U+200B, U+2028 and U+2029 by its `\uHHHH` escape.
 */
export function safeText(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/**
 * `value` as pretty JSON that is safe on a terminal and parses to the same value: JSON escapes
 * C0 controls itself; DEL, the C1 controls, the bidirectional formatting characters, U+200B,
 * U+2028 and U+2029, which it leaves raw, become `\uHHHH` escapes.
 */
export function safeJson(value: unknown): string {
  return (JSON.stringify(value, null, 2) ?? "null").replace(UNSAFE_IN_JSON, jsonEscaped);
}

/**
 * Whether `url` may go to the platform's opener (`open`, `xdg-open`, `start`): only `http:` and
 * `https:`. The opener acts on any scheme (`file:`, `smb:`, an OS handler's), so nothing else is
 * ever handed to it.
 */
export function isOpenable(url: string | URL): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}
