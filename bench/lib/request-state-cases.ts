/**
 * The requestState cases both requestState benchmarks measure (`request-state.bench.ts` and the
 * seal/open rows of `npm run bench`): a policy with one random key, the scope of the `provision`
 * retry (binding computed once, outside any timed region), and ASCII plaintext states of a given
 * size (base64url text, so JSON escaping costs nothing extra).
 */
import { randomBytes } from "node:crypto";
import { requestBinding } from "../../packages/tsmcp/src/server/state/claims.js";
import { RequestStateSecurity } from "../../packages/tsmcp/src/server/state/policy.js";
import type { RequestStateScope } from "../../packages/tsmcp/src/server/state/sealing.js";

/** The state sizes measured, by label. */
export const STATE_SIZES: readonly (readonly [label: string, bytes: number])[] = [
  ["1 KiB", 1024],
  ["16 KiB", 16 * 1024],
];

/** A policy with one fresh 32-byte key and the defaults (ten-minute expiry). */
export function benchPolicy(): RequestStateSecurity {
  return new RequestStateSecurity({ keys: [randomBytes(32)] });
}

/** The scope of a `provision` retry with no authenticated principal. */
export const UNBOUND_SCOPE: RequestStateScope = {
  binding: requestBinding("tools/call", {
    name: "provision",
    arguments: { name: "orders", region: "eu-west-1" },
  }),
  audience: "Provisioner",
  principal: () => undefined,
};

/** The same scope bound to an authenticated principal (adds one SHA-256 on each side). */
export const PRINCIPAL_BOUND_SCOPE: RequestStateScope = {
  ...UNBOUND_SCOPE,
  principal: () => '["client-123","https://as.example","alice"]',
};

/** An ASCII state of exactly `sizeBytes` bytes. */
export function plaintextState(sizeBytes: number): string {
  return randomBytes(sizeBytes).toString("base64url").slice(0, sizeBytes);
}
