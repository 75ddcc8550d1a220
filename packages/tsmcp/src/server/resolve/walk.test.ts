/**
 * The graph walk on its own, with askers other than the multi-round-trip one: the engine does not
 * care how a question reaches the client, so an asker that answers at once (as a back-channel
 * would) resolves the whole graph in one walk.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { elicit } from "./elicit.js";
import { compileResolverGraph } from "./graph.js";
import type { ResolverOutcome } from "./outcome.js";
import type { Question } from "./question.js";
import { contextWith } from "./resolve-test-fixtures.js";
import { outcome, resolver } from "./resolver.js";
import { type AskResult, type QuestionAsker, walkResolvers } from "./walk.js";

const Ok = z.object({ ok: z.boolean() });

/** Answers every question at once, as a back-channel asker would, and notes what it was asked. */
function answeringAsker(answer: (name: string) => ResolverOutcome<unknown>) {
  const asked: string[] = [];
  const asker: QuestionAsker = {
    async ask(name: string, question: Question): Promise<AskResult> {
      asked.push(`${name}:${question.kind}`);
      return { status: "answered", outcome: answer(name) };
    },
  };
  return { asker, asked };
}

describe("a walk", () => {
  it("resolves a dependent chain in one pass when its asker answers at once", async () => {
    const login = resolver("login", () => elicit("Who?", z.object({ user: z.string() })));
    const confirm = resolver("confirm", { needs: { login } }, ({ needs }) =>
      elicit(`As ${needs.login.user}?`, Ok),
    );
    const { asker, asked } = answeringAsker((name) =>
      name === "login"
        ? { status: "accepted", content: { user: "ada" } }
        : { status: "accepted", content: { ok: true } },
    );
    const walked = await walkResolvers(compileResolverGraph({ login, confirm }, "t"), {
      args: {},
      ctx: contextWith(),
      asker,
    });
    expect(walked).toEqual({ status: "resolved", values: { login: { user: "ada" }, confirm: { ok: true } } });
    expect(asked).toEqual(["login:elicit", "confirm:elicit"]);
  });

  it("hands an outcome consumer a decline and fails a plain one", async () => {
    const confirm = resolver("confirm", () => elicit("Sure?", Ok));
    const { asker } = answeringAsker(() => ({ status: "declined" }));
    const walked = await walkResolvers(compileResolverGraph({ confirm: outcome(confirm) }, "t"), {
      args: {},
      ctx: contextWith(),
      asker,
    });
    expect(walked).toEqual({ status: "resolved", values: { confirm: { status: "declined" } } });
    await expect(
      walkResolvers(compileResolverGraph({ confirm }, "t"), { args: {}, ctx: contextWith(), asker }),
    ).rejects.toThrow("The user declined the question for 'confirm'.");
  });

  it("does not run a resolver whose dependency is pending, but visits its independent siblings", async () => {
    const runs: string[] = [];
    const a = resolver("a", () => elicit("A?", Ok));
    const b = resolver("b", () => elicit("B?", Ok));
    const after = resolver("after", { needs: { a, b } }, () => {
      runs.push("after");
      return 1;
    });
    const asked: string[] = [];
    const asker: QuestionAsker = {
      async ask(name) {
        asked.push(name);
        return { status: "pending" };
      },
    };
    const walked = await walkResolvers(compileResolverGraph({ after }, "t"), {
      args: {},
      ctx: contextWith(),
      asker,
    });
    expect(walked).toEqual({ status: "pending" });
    expect(asked).toEqual(["a", "b"]);
    expect(runs).toEqual([]);
  });

  it("gives every resolver and consumer frozen values, leaving the arguments as they are", async () => {
    const args = { name: "orders" };
    const seen: unknown[] = [];
    const base = resolver("base", () => ({ id: 1 }));
    const next = resolver("next", { needs: { base } }, ({ args: given, needs }) => {
      seen.push(Object.isFrozen(needs), given);
      return 2;
    });
    const { asker } = answeringAsker(() => ({ status: "cancelled" }));
    const walked = await walkResolvers(compileResolverGraph({ next }, "t"), {
      args,
      ctx: contextWith(),
      asker,
    });
    expect(walked).toMatchObject({ status: "resolved" });
    expect(seen).toEqual([true, args]);
    expect(seen[1]).toBe(args);
  });
});
