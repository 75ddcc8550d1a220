/**
 * The requestState policy of test servers: `MCPServer`s built with it and served over HTTP seal
 * with a fixed key, as a deployed server should, and so do not log the process-local key warning
 * (which `ephemeral-key-warning.test.ts` asserts on its own).
 */
import { RequestStateSecurity } from "../../packages/tsmcp/src/server/state/policy.js";

/** The one 32-byte key of {@link testRequestStateSecurity}. */
export const TEST_REQUEST_STATE_KEY = Buffer.alloc(32, 0x5e);

/** A fresh policy over {@link TEST_REQUEST_STATE_KEY}, other options at their defaults. */
export function testRequestStateSecurity(): RequestStateSecurity {
  return new RequestStateSecurity({ keys: [TEST_REQUEST_STATE_KEY] });
}
