import { describe, expect, it } from "vitest";
import { INVALID_REQUEST_STATE_ERROR, INVALID_REQUEST_STATE_REASONS, InvalidRequestState } from "./errors.js";

describe("InvalidRequestState", () => {
  it("carries one reason code of the closed set, with free detail beside it", () => {
    const error = new InvalidRequestState("malformed", { detail: "non-string requestState" });
    expect(error.reason).toBe("malformed");
    expect(error.detail).toBe("non-string requestState");
    expect(error.message).toBe("malformed: non-string requestState");
    expect(new InvalidRequestState("expired").detail).toBeUndefined();
    expect(new InvalidRequestState("expired").message).toBe("expired");
  });

  it("reads a reason outside the set as a codec's own refusal, its text kept as detail", () => {
    const error = new InvalidRequestState("revoked by kms" as never);
    expect(error.reason).toBe("rejected");
    expect(error.detail).toBe("revoked by kms");
    expect(INVALID_REQUEST_STATE_REASONS.has(error.reason)).toBe(true);
  });

  it("pins the reason codes operators grep for", () => {
    expect([...INVALID_REQUEST_STATE_REASONS].sort()).toEqual(
      [
        "audience",
        "codec error",
        "expired",
        "malformed",
        "minted in the future",
        "principal",
        "principal binding error",
        "principal drift",
        "rejected",
        "replay cache error",
        "replayed",
        "request binding",
        "seal",
        "unknown key",
      ].sort(),
    );
  });

  it("never changes the wire error, whatever the reason", () => {
    expect(INVALID_REQUEST_STATE_ERROR).toStrictEqual({
      code: -32602,
      message: "Invalid or expired requestState",
      data: { reason: "invalid_request_state" },
    });
  });
});
