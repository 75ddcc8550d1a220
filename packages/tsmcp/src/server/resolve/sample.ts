/**
 * The `sample` marker: a resolver returns `sample({ messages, maxTokens, ... })` to have the
 * client's model complete a conversation. The params are checked when the marker is built,
 * including the tool-use / tool-result structure of the messages. Spec: client/sampling
 * (deprecated feature; embedded in an InputRequiredResult it is the blessed carrier).
 */
import {
  type CreateMessageRequest,
  type CreateMessageRequestParams,
  CreateMessageRequestParamsSchema,
  type SamplingMessage,
  type SamplingMessageContentBlock,
} from "../../protocol/schema/input.js";
import { deepFreeze } from "../schema/json.js";
import { questionDigest } from "./digest.js";

function blocksOf(message: SamplingMessage): SamplingMessageContentBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/**
 * Checks the tool-use structure of a conversation: a message carrying tool results carries only
 * tool results, comes from the user, and answers exactly the tool uses of the assistant message
 * right before it.
 */
function checkToolStructure(messages: readonly SamplingMessage[]): void {
  messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    const results = blocks.filter((block) => block.type === "tool_result");
    if (results.length === 0) return;
    if (results.length !== blocks.length || message.role !== "user") {
      throw new TypeError(
        `sample: messages[${index}] carries tool results, so it must be a user message with only tool results`,
      );
    }
    const previous = index > 0 ? messages[index - 1] : undefined;
    const uses =
      previous?.role === "assistant" ? blocksOf(previous).filter((b) => b.type === "tool_use") : [];
    const useIds = uses.map((block) => (block as { id: string }).id).sort();
    const resultIds = results.map((block) => (block as { toolUseId: string }).toolUseId).sort();
    if (useIds.length === 0 || JSON.stringify(useIds) !== JSON.stringify(resultIds)) {
      throw new TypeError(
        `sample: the tool results of messages[${index}] must answer exactly the tool uses of the assistant message before it`,
      );
    }
  });
}

/**
 * A sampling request a resolver asks for; the resolver's value is the client's
 * `CreateMessageResult`. Build it with {@link sample}.
 */
export class SampleMarker {
  /** Which kind of question this is. */
  readonly kind = "sample" as const;
  /** The rendered request: `sampling/createMessage` (deeply frozen). */
  readonly request: CreateMessageRequest;
  /** The digest of the rendered params (see `questionDigest`). */
  readonly digest: string;
  /** True when `tools` or `toolChoice` is set: the client must declare `sampling.tools`. */
  readonly usesTools: boolean;

  /** Use {@link sample}. @throws as `sample` does. */
  constructor(params: CreateMessageRequestParams) {
    const checked = CreateMessageRequestParamsSchema.safeParse(params);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const path = issue === undefined || issue.path.length === 0 ? "params" : issue.path.join(".");
      throw new TypeError(`sample: ${path}: ${issue?.message ?? "invalid"}`);
    }
    if (checked.data.maxTokens < 1) {
      throw new RangeError(`sample: maxTokens must be a positive integer, got ${checked.data.maxTokens}`);
    }
    if (checked.data.messages.length === 0) throw new TypeError("sample: messages must not be empty");
    checkToolStructure(checked.data.messages);
    const rendered = structuredClone(params);
    this.request = deepFreeze({ method: "sampling/createMessage", params: rendered });
    this.digest = questionDigest(rendered);
    this.usesTools = rendered.tools !== undefined || rendered.toolChoice !== undefined;
    Object.freeze(this);
  }
}

/**
 * Asks the client's model for a completion (sampling), from inside a resolver:
 *
 * ```ts
 * const summary = resolver("summary", ({ args }) =>
 *   sample({ messages: [{ role: "user", content: { type: "text", text: `Summarise ${String(args.doc)}` } }], maxTokens: 200 }));
 * ```
 *
 * The consumer receives the client's `CreateMessageResult`. The sampled result is kept in
 * `requestState` for the rest of the call, so the model is asked once per call (a long completion
 * makes every later round larger). With `tools` or `toolChoice` the client must declare
 * `sampling.tools`. `params` is copied, never modified. Spec: client/sampling.
 *
 * @throws TypeError for params that are not a valid `CreateMessageRequestParams`, no messages, or
 *   tool results that do not answer the tool uses right before them; RangeError for `maxTokens` < 1.
 *
 * @deprecated Sampling is deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
 */
export function sample(params: CreateMessageRequestParams): SampleMarker {
  return new SampleMarker(params);
}
