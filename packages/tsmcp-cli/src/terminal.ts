/**
 * Text from a server made safe for a terminal. A server chooses tool text, log messages, prompt
 * and resource text, elicitation messages and URLs, and error messages; written raw, their control
 * characters would drive the terminal (ECMA-48 escape and control sequences: OSC 52 writes the
 * clipboard, OSC 0 sets the title, CSI 2J clears the screen, a carriage return overwrites a line).
 * Every C0 control but line feed and tab, DEL, and every C1 control is shown as an escape instead
 * (`\x1b`, `\x9b`), so the text stays readable and nothing is hidden. And a URL from a server
 * goes to the platform's opener only when it is http(s).
 */

/** C0 controls but `\t` (09) and `\n` (0A), DEL (7F), and the C1 controls (80-9F). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with each control character but `\n` and `\t` replaced by its `\xHH` escape. */
export function safeText(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/**
 * `value` as pretty JSON that is safe on a terminal and parses to the same value: JSON escapes
 * C0 controls itself; DEL and the C1 controls, which it leaves raw, become `\u00HH` escapes.
 */
export function safeJson(value: unknown): string {
  return (JSON.stringify(value, null, 2) ?? "null").replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
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
