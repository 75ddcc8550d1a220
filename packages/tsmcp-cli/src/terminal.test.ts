import { afterEach, describe, expect, it, vi } from "vitest";
import { writeLog } from "./connect.js";
import { isOpenable, safeJson, safeText } from "./terminal.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("safeText", () => {
  it("shows C0 controls but line feed and tab, DEL and C1 controls as \\xHH escapes", () => {
    expect(safeText("a\u001b[2Jb\u0007c\rd\u0000e\u007ff\u009bg\u0085h")).toBe(
      "a\\x1b[2Jb\\x07c\\x0dd\\x00e\\x7ff\\x9bg\\x85h",
    );
  });

  it("shows the bidirectional formatting characters as \\uHHHH escapes, so no text is reordered", () => {
    // An override that makes "txt.exe" read "exe.txt", an isolate, the marks, and the Arabic mark.
    expect(
      safeText("file\u202etxt.exe \u2066a\u2069 \u202a\u202b\u202c\u202d \u200e\u200f\u061c\u2067\u2068"),
    ).toBe(
      "file\\u202etxt.exe \\u2066a\\u2069 \\u202a\\u202b\\u202c\\u202d \\u200e\\u200f\\u061c\\u2067\\u2068",
    );
  });

  it("shows the zero-width space and the line and paragraph separators as \\uHHHH escapes", () => {
    expect(safeText("zero\u200bwidth line\u2028separator paragraph\u2029separator")).toBe(
      "zero\\u200bwidth line\\u2028separator paragraph\\u2029separator",
    );
  });

  it("keeps line feeds, tabs and the rest of Unicode as they are", () => {
    expect(safeText("line 1\n\tline 2 · é 漢字 🙂 \u00a0")).toBe("line 1\n\tline 2 · é 漢字 🙂 \u00a0");
  });
});

describe("safeJson", () => {
  it("parses to the same value, with DEL, C1 controls and bidirectional formatting escaped as well", () => {
    const value = {
      text: "a\u001b]52;c;x\u0007\u009b\u007f\n",
      name: "file\u202etxt.exe\u2066\u200f\u061c",
      invisible: "a\u200bb\u2028c\u2029d",
    };
    const json = safeJson(value);
    // No control character but the line feeds of pretty printing.
    expect(safeText(json)).toBe(json);
    expect(json).not.toMatch(/[\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(json).toContain("file\\u202etxt.exe");
    expect(json).toContain("a\\u200bb\\u2028c\\u2029d");
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe("isOpenable", () => {
  it("is true of http(s) URLs alone", () => {
    expect(isOpenable("https://as.example/authorize?x=1")).toBe(true);
    expect(isOpenable(new URL("http://127.0.0.1:9/cb"))).toBe(true);
    for (const url of [
      "file:///etc/passwd",
      "smb://host/share",
      "ms-msdt:/id",
      "javascript:alert(1)",
      "no url",
    ])
      expect(isOpenable(url)).toBe(false);
  });
});

describe("writeLog", () => {
  it("does not pass a server's terminal control sequences through to stderr", () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    });
    // A log message that sets the window title, writes the clipboard (OSC 52), clears the screen.
    writeLog({ level: "info", data: "hi\u001b]0;pwned\u0007\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J" });
    expect(written.join("")).toBe("[info] hi\\x1b]0;pwned\\x07\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x1b[2J\n");
  });
});
