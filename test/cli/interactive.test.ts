/**
 * The `tsmcp` command on a real pseudo-terminal: it asks each question of each round as a prompt,
 * re-asks invalid input, and lets Esc decline; what it prints is read from the screen.
 */
import { elicitationRequest, inputRequired, Server } from "tsmcp/server";
import type { ElicitResult } from "tsmcp/types";
import { describe, expect, it } from "vitest";
import { createChattyServer } from "./fixtures/chatty-server.js";
import { KEY, onTerminal } from "./pty.js";
import { httpExample, stdioExample } from "./run-cli.js";

/** A form with one field of every kind the spec allows. */
const EVERY_FIELD = elicitationRequest({
  message: "Tell us about the launch",
  requestedSchema: {
    type: "object",
    properties: {
      email: { type: "string", format: "email", title: "Contact" },
      seats: { type: "integer", minimum: 1, maximum: 10, title: "Seats" },
      urgent: { type: "boolean", title: "Urgent", default: false },
      size: {
        type: "string",
        title: "Size",
        oneOf: [
          { const: "s", title: "Small" },
          { const: "l", title: "Large" },
        ],
      },
      color: { type: "string", title: "Color", enum: ["red", "blue"], default: "blue" },
      tags: { type: "array", title: "Tags", items: { type: "string", enum: ["a", "b", "c"] } },
      note: { type: "string", title: "Note", default: "none" },
    },
    required: ["email", "seats", "size", "tags"],
  },
});

/** A server whose `survey` tool asks EVERY_FIELD and prints the answer it got. */
function surveyServer(): Server {
  return new Server("survey", {
    onListTools: () => ({ tools: [{ name: "survey", inputSchema: { type: "object" } }] }),
    onCallTool: (_ctx, params) => {
      const answer = params.inputResponses?.launch as ElicitResult | undefined;
      if (answer === undefined) return inputRequired({ inputRequests: { launch: EVERY_FIELD } });
      return { content: [{ type: "text", text: `got ${JSON.stringify(answer)}` }] };
    },
  });
}

describe("tsmcp on a terminal", () => {
  it("asks the deploy example's two rounds of questions and prints the deployment", async () => {
    const term = onTerminal(["call", stdioExample("deploy"), "deploy", "service=billing", "version=2.4.0"]);
    await term.waitFor("round 1 · environment: Where should billing 2.4.0 be deployed?");
    await term.waitFor("○ production");
    term.type(KEY.down);
    await term.waitFor("● production");
    term.type(KEY.enter);
    await term.waitFor("round 1 · notes: Release notes for billing 2.4.0?");
    // Type once the prompt is drawn (it reads the terminal from then on).
    await term.waitFor("◆  notes");
    term.type(`Faster checkout.${KEY.enter}`);
    await term.waitFor("round 2 · approval: Deploy billing 2.4.0 to production?");
    await term.waitFor("Yes / ● No");
    term.type("y");
    await term.waitFor("approval -> accept");
    await term.waitFor("Deployed billing 2.4.0 to production. Notes: Faster checkout.");
    expect(await term.exited).toBe(0);
  });

  it("asks a form with every field kind, re-asking what is invalid", async () => {
    const term = onTerminal(["call", await httpExample(surveyServer()), "survey"]);
    await term.waitFor("round 1 · launch: Tell us about the launch");
    await term.waitFor("Contact (email)");
    term.type(`not-an-email${KEY.enter}`);
    await term.waitFor("enter an email address");
    term.type(`${KEY.backspace.repeat(12)}ada@example.com${KEY.enter}`);
    await term.waitFor("Seats");
    term.type(`12${KEY.enter}`);
    await term.waitFor("at most 10");
    term.type(`${KEY.backspace.repeat(2)}3${KEY.enter}`);
    await term.waitFor("Urgent (optional)");
    term.type("y");
    await term.waitFor("Size");
    term.type(`${KEY.down}${KEY.enter}`);
    await term.waitFor("Color (optional)");
    term.type(KEY.enter);
    await term.waitFor("Tags");
    term.type(`${KEY.space}${KEY.down}${KEY.down}${KEY.space}${KEY.enter}`);
    await term.waitFor("Note (optional)");
    term.type(KEY.enter);
    await term.waitFor("got ");
    expect(await term.exited).toBe(0);
    expect(term.screen()).toContain(
      'got {"action":"accept","content":{"email":"ada@example.com","seats":3,"urgent":true,"size":"l","color":"blue","tags":["a","c"],"note":"none"}}',
    );
  });

  it("offers decline or cancel on Esc, and declines", async () => {
    const term = onTerminal(["call", await httpExample(surveyServer()), "survey"]);
    await term.waitFor("Contact (email)");
    term.type(KEY.escape);
    await term.waitFor("Stop answering email?");
    await term.waitFor("Decline");
    term.type(KEY.enter);
    await term.waitFor('got {"action":"decline"}');
    expect(await term.exited).toBe(0);
  });

  it("draws progress as a bar on the terminal, not as lines, and leaves its last label", async () => {
    const term = onTerminal(["call", await httpExample(createChattyServer()), "work"]);
    await term.waitFor("[info worker] starting");
    // The stopped bar keeps its last label (clack marks it ◇).
    await term.waitFor("◇  3/3 step 3");
    await term.waitFor("worked");
    expect(await term.exited).toBe(0);
    expect(term.screen()).not.toContain("progress 1/3");
  });
});
