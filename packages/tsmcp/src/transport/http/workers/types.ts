/**
 * The parts of the Cloudflare Workers Durable Objects API the session adapter uses, as structural
 * types: the SDK depends on no Workers type package, and a binding from `@cloudflare/workers-types`
 * (or a test double) fits them as is. Spec of the platform API:
 * https://developers.cloudflare.com/durable-objects/api/
 */

/** A Durable Object's id (`DurableObjectId`): its string form is 64 lowercase hex digits. */
export interface DurableObjectIdLike {
  /** The id as a string, which `idFromString` turns back into the id. */
  toString(): string;
}

/** A stub naming one Durable Object (`DurableObjectStub`): requests sent to it reach the object's `fetch`. */
export interface DurableObjectStubLike {
  /** Sends `request` to the object and resolves with its response (streamed, as the object writes it). */
  fetch(request: Request): Promise<Response>;
}

/**
 * A Durable Object namespace binding (`DurableObjectNamespace`, configured in `wrangler.toml`
 * under `durable_objects.bindings`).
 */
export interface DurableObjectNamespaceLike {
  /** A new id, naming an object that does not exist yet, unique across the world. */
  newUniqueId(): DurableObjectIdLike;
  /**
   * The id whose string form is `id`.
   *
   * @throws when `id` is not the string form of an id of this namespace.
   */
  idFromString(id: string): DurableObjectIdLike;
  /** A stub for the object `id` names (the object starts on its first request). */
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}

/** What a Durable Object's constructor receives first (`DurableObjectState`): here, only its id. */
export interface DurableObjectStateLike {
  /** The object's own id. */
  readonly id: DurableObjectIdLike;
}
