/**
 * The `listRoots` marker: a resolver returns `listRoots()` to learn which filesystem roots the
 * client exposes. Spec: client/roots (deprecated feature).
 */
import type { ListRootsRequest } from "../../protocol/schema/input.js";
import { deepFreeze } from "../schema/json.js";
import { questionDigest } from "./digest.js";

const REQUEST: ListRootsRequest = deepFreeze({ method: "roots/list" });
const DIGEST = questionDigest(undefined);

/** A roots request a resolver asks for; the resolver's value is the client's `ListRootsResult`. */
export class ListRootsMarker {
  /** Which kind of question this is. */
  readonly kind = "listRoots" as const;
  /** The rendered request: `roots/list`, without params (frozen). */
  readonly request: ListRootsRequest = REQUEST;
  /** The digest of the rendered params (`null`). */
  readonly digest: string = DIGEST;

  /** Use {@link listRoots}. */
  constructor() {
    Object.freeze(this);
  }
}

/**
 * Asks the client which roots it exposes, from inside a resolver:
 * `resolver("roots", () => listRoots())`. The consumer receives the client's `ListRootsResult`;
 * the client must declare `roots`. Spec: client/roots.
 *
 * @deprecated Roots are deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
 */
export function listRoots(): ListRootsMarker {
  return new ListRootsMarker();
}
