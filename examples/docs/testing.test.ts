/**
 * The README's provisioning server tested with `tsmcp/testing`: the scripted answers of its two
 * questions in each era, a declined confirmation, a tampered and a foreign `requestState`, a
 * client without elicitation, and the single-use tool's replayed final round.
 */
import {
  ERAS,
  expectCapabilityRequired,
  expectInvalidRequestState,
  tamperRequestState,
  testServer,
} from "tsmcp/testing";
import { describe, expect, it } from "vitest";
import { createDocsServer } from "./server.js";

const PROVISION = { method: "tools/call", name: "provision", arguments: { name: "orders" } } as const;

describe.each(ERAS)("the provisioning tool at %s", (era) => {
  it("asks for the region, then for a confirmation, and provisions", async () => {
    const t = testServer(createDocsServer(), { era, authInfo: { token: "t", subject: "alice" } });
    const run = await t.callTool(
      "provision",
      { name: "orders" },
      { answers: { region: { region: "eu-west-1" }, confirm: { ok: true } } },
    );
    expect(run.result.content).toEqual([{ type: "text", text: "Provisioned orders in eu-west-1 for alice" }]);
    expect(run.questions.map((question) => `${question.round} ${question.key}`)).toEqual(
      era === "2026-07-28" ? ["1 region", "2 confirm"] : ["1 region", "1 confirm"],
    );
    expect(run.rounds).toBe(era === "2026-07-28" ? 2 : 0);
    await t.close();
  });

  it("does not provision when the user declines the confirmation", async () => {
    const t = testServer(createDocsServer(), { era });
    const run = await t.callTool(
      "provision",
      { name: "orders" },
      { answers: { region: { region: "eu-west-1" }, confirm: "decline" } },
    );
    expect(run.result.content).toEqual([{ type: "text", text: "Not provisioned: orders was not confirmed" }]);
    await t.close();
  });

  it("refuses a client that cannot answer forms with -32021", async () => {
    const t = testServer(createDocsServer(), { era, answerable: { elicitation: false } });
    await expectCapabilityRequired(t.callTool("provision", { name: "orders" }), "elicitation");
    await t.close();
  });
});

describe("the provisioning tool's requestState", () => {
  const region = { region: { action: "accept", content: { region: "eu-west-1" } } } as const;

  it("is refused with -32602 when tampered with, or echoed by another principal", async () => {
    const t = testServer(createDocsServer(), { authInfo: { token: "a", subject: "alice" } });
    const first = await t.firstRound(PROVISION);
    expect(first.resultType).toBe("input_required");
    const requestState = String((first as { requestState?: string }).requestState);

    await expectInvalidRequestState(
      t.retry(PROVISION, { inputResponses: region, requestState: tamperRequestState(requestState) }),
    );
    await expectInvalidRequestState(
      t.retry(PROVISION, { inputResponses: region, requestState, authInfo: { token: "b", subject: "bob" } }),
    );
    const second = await t.retry(PROVISION, { inputResponses: region, requestState });
    expect(second).toMatchObject({ resultType: "input_required", inputRequests: { confirm: {} } });
    await t.close();
  });

  it("opens once for the single-use tool: a replayed final round is refused", async () => {
    const t = testServer(createDocsServer());
    const target = { method: "tools/call", name: "delete-project", arguments: { project: "atlas" } } as const;
    const first = await t.firstRound(target);
    const leg = {
      inputResponses: { reason: { action: "accept", content: { reason: "replaced by orion" } } },
      requestState: String((first as { requestState?: string }).requestState),
    } as const;
    expect(await t.retry(target, leg)).toMatchObject({
      content: [{ type: "text", text: "Deleted atlas (replaced by orion)" }],
    });
    await expectInvalidRequestState(t.retry(target, leg));
    await t.close();
  });
});
