/**
 * What a resolver may ask: the three markers, and how a resolver's return value maps to the value
 * its consumers receive (at the type level: `elicit` gives the form's content type, `sample` a
 * `CreateMessageResult`, `listRoots` a `ListRootsResult`, anything else itself).
 */
import type { CreateMessageResult, ListRootsResult } from "../../protocol/schema/input.js";
import { ElicitMarker } from "./elicit.js";
import { ListRootsMarker } from "./list-roots.js";
import { SampleMarker } from "./sample.js";

/** A question a resolver asks the client: a form, a sampling request or a roots request. */
export type Question = ElicitMarker<unknown> | SampleMarker | ListRootsMarker;

/** True when a resolver's return value is a question (built by `elicit`, `sample` or `listRoots`). */
export function isQuestion(value: unknown): value is Question {
  return value instanceof ElicitMarker || value instanceof SampleMarker || value instanceof ListRootsMarker;
}

/**
 * The value a resolver returning `R` gives its consumers (distributes over unions):
 * `ElicitMarker<T>` -> `T`; `SampleMarker` -> `CreateMessageResult`; `ListRootsMarker` ->
 * `ListRootsResult`; any other type -> itself.
 */
export type QuestionValue<R> =
  R extends ElicitMarker<infer T>
    ? T
    : R extends SampleMarker
      ? CreateMessageResult
      : R extends ListRootsMarker
        ? ListRootsResult
        : R;
