import { describe, expect, it } from "vitest";
import { SessionExpiredError, TransportError } from "./transport.js";

describe("SessionExpiredError", () => {
  it("is a TransportError named SessionExpiredError that keeps the HTTP status", () => {
    const error = new SessionExpiredError("session gone", { httpStatus: 404 });
    expect(error).toBeInstanceOf(TransportError);
    expect(error.name).toBe("SessionExpiredError");
    expect(error.httpStatus).toBe(404);
  });
});
