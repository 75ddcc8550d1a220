/**
 * A tool's missing arguments at the command: on a pseudo-terminal they are asked as form fields
 * from the tool's inputSchema (the required ones; with --ask-all the optional ones too, defaults
 * and choices shown, a nested object's fields under its name) and the call completes; without a
 * terminal the command stops before calling, naming each missing argument and its type.
 */
import { describe, expect, it } from "vitest";
import { createBookingServer } from "./fixtures/booking-server.js";
import { KEY, onTerminal } from "./pty.js";
import { httpExample, tsmcp } from "./run-cli.js";

describe("missing arguments at a terminal", () => {
  it("asks the required ones, then the tool's question, and completes", async () => {
    const term = onTerminal(["call", await httpExample(createBookingServer()), "book_table"]);
    await term.waitFor("◆  restaurant — Where to eat");
    term.type(`Chez Ada${KEY.enter}`);
    await term.waitFor("◆  guest.name");
    term.type(`Ada${KEY.enter}`);
    await term.waitFor("round 1 · confirm: Book Chez Ada?");
    await term.waitFor("Yes / ● No");
    term.type("y");
    await term.waitFor('booked {"restaurant":"Chez Ada","party":2,"guest":{"name":"Ada"}}');
    expect(await term.exited).toBe(0);
    expect(term.screen()).not.toContain("party (optional)");
  });

  it("asks the optional ones too with --ask-all: the default offered, a choice, one left empty", async () => {
    const term = onTerminal([
      "call",
      await httpExample(createBookingServer()),
      "book_table",
      "restaurant=Chez Ada",
      "--ask-all",
    ]);
    await term.waitFor("◆  party (optional)");
    term.type(`${KEY.backspace}5${KEY.enter}`);
    await term.waitFor("◆  when (optional)");
    await term.waitFor("(leave empty)");
    term.type(`${KEY.down}${KEY.enter}`);
    await term.waitFor("◆  guest.name");
    term.type(`Ada${KEY.enter}`);
    await term.waitFor("◆  guest.phone (optional)");
    term.type(KEY.enter);
    await term.waitFor("Yes / ● No");
    term.type("y");
    await term.waitFor('booked {"restaurant":"Chez Ada","party":5,"when":"dinner","guest":{"name":"Ada"}}');
    expect(await term.exited).toBe(0);
    expect(term.screen()).not.toContain("◆  restaurant");
  });

  it("re-asks an argument out of its bounds", async () => {
    const term = onTerminal([
      "call",
      await httpExample(createBookingServer()),
      "book_table",
      "restaurant=Chez Ada",
      'guest={"name":"Ada"}',
      "--ask-all",
    ]);
    await term.waitFor("◆  party (optional)");
    term.type(`${KEY.backspace}13${KEY.enter}`);
    await term.waitFor("at most 12");
    term.type(KEY.ctrlC);
    await term.waitFor("cancelled: book_table was not called");
    expect(await term.exited).toBe(2);
  });
});

describe("missing arguments without a terminal", () => {
  it("names every missing argument and its type, and calls nothing (exit 2)", async () => {
    const url = await httpExample(createBookingServer());
    const run = await tsmcp(["call", url, "book_table", "party=3"]);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toBe(
      `call book_table at ${url}: book_table needs restaurant: string (non-empty), guest.name: string; pass them as name=value or ` +
        "--args '{...}', or run at a terminal to be asked\n",
    );
  });

  it("puts them in the --json error", async () => {
    const run = await tsmcp(["--json", "call", await httpExample(createBookingServer()), "book_table"]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: {
        code: "MissingArgumentsError",
        data: {
          tool: "book_table",
          missing: [
            { name: "restaurant", type: "string (non-empty)" },
            { name: "guest.name", type: "string" },
          ],
        },
      },
    });
  });
});
