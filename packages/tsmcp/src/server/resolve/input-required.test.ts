/**
 * The multi-round-trip adapter: a round with pending questions answers with an
 * `InputRequiredResult` carrying them and the plaintext state; a resolved round yields the values.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { elicit } from "./elicit.js";
import { compileResolverGraph } from "./graph.js";
import { type RoundContext, resolveStep } from "./input-required.js";
import { accept, contextWith } from "./resolve-test-fixtures.js";
import { resolver } from "./resolver.js";

function roundContext(
  round: Partial<Pick<RoundContext, "inputResponses" | "requestState">> = {},
): RoundContext {
  return { ...contextWith(), inputResponses: round.inputResponses, requestState: round.requestState };
}

describe("the resolve step", () => {
  const confirm = resolver("confirm", ({ args }) =>
    elicit(`Delete ${String(args.name)}?`, z.object({ ok: z.boolean() })),
  );
  const step = resolveStep(compileResolverGraph({ confirm }, 'tool "delete"'));

  it("answers the first round with an InputRequiredResult carrying the question and the state", async () => {
    const first = await step({ name: "orders" }, roundContext());
    expect(first).toEqual({
      status: "input_required",
      result: {
        resultType: "input_required",
        inputRequests: {
          confirm: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Delete orders?",
              requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
            },
          },
        },
        requestState: expect.stringMatching(/^\{"v":1,/),
      },
    });
  });

  it("yields the values once the retry carries the answer and the echoed state", async () => {
    const first = await step({ name: "orders" }, roundContext());
    if (first.status !== "input_required") throw new Error("expected input_required");
    const second = await step(
      { name: "orders" },
      roundContext({
        inputResponses: { confirm: accept({ ok: true }) },
        requestState: first.result.requestState,
      }),
    );
    expect(second).toEqual({
      status: "resolved",
      values: { confirm: { ok: true } },
      // The recorded outcome, for a handler that goes on asking with ctx.ask in the same requestState.
      requestState: expect.stringMatching(/^\{"v":1,"outcomes":\{"confirm":\{"action":"accept"/),
    });
  });
});
