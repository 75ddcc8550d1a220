/**
 * What a sealed `requestState` is bound to, asserted on raw legs: the principal that made the
 * round (another caller echoing it is refused), and single use (a tool declared `singleUse` opens
 * each state once, so a replayed final round is refused). Each throws
 * {@link HarnessAssertionError} when the server behaves otherwise.
 * Spec: basic/patterns/mrtr §Security (requestState).
 */
import type { AuthInfo } from "../transport/dispatcher.js";
import { expectInvalidRequestState, HarnessAssertionError } from "./expect.js";
import type { CallTarget, LegInput, LegResult, ServerHarness } from "./harness.js";

/** A leg's result, or the error it was refused with. */
async function settle(leg: Promise<LegResult>): Promise<{ result: LegResult } | { error: unknown }> {
  try {
    return { result: await leg };
  } catch (error) {
    return { error };
  }
}

/**
 * Expects the retry `leg` (its `requestState` from a round `owner` made) to be bound to `owner`:
 * sent as `other` it is refused with the frozen -32602; sent as `owner` it is answered. Resolves
 * with the owner's result.
 *
 * @throws HarnessAssertionError when `other` is not refused, or `owner` is.
 */
export async function expectPrincipalBound(
  harness: ServerHarness,
  target: CallTarget,
  leg: Omit<LegInput, "authInfo">,
  owner: AuthInfo,
  other: AuthInfo,
): Promise<LegResult> {
  await expectInvalidRequestState(harness.retry(target, { ...leg, authInfo: other }));
  const mine = await settle(harness.retry(target, { ...leg, authInfo: owner }));
  if ("error" in mine) {
    const error = mine.error;
    throw new HarnessAssertionError(
      `expected the owner's retry to be answered, it was refused: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return mine.result;
}

/**
 * Expects the final retry `leg` to open once: sent the first time it is answered, sent again it
 * is refused with the frozen -32602 (a `singleUse` tool). Resolves with the first result.
 *
 * @throws HarnessAssertionError when the first is refused or the replay is not.
 */
export async function expectSingleUse(
  harness: ServerHarness,
  target: CallTarget,
  leg: LegInput,
): Promise<LegResult> {
  const first = await settle(harness.retry(target, leg));
  if ("error" in first) {
    const error = first.error;
    throw new HarnessAssertionError(
      `expected the first use to be answered, it was refused: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  await expectInvalidRequestState(harness.retry(target, leg));
  return first.result;
}
