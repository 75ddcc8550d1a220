/**
 * The client of the guides in `docs/`: a typed elicitation callback, a `Client` that runs the
 * multi round-trip loop, progress and cancellation on a call, a caller who drives each leg
 * with `client.session`, and a listener for a resource's changes. `examples/docs/docs.test.ts` runs each against `examples/docs/server.ts`
 * over Streamable HTTP on 127.0.0.1.
 */
import { Client, type ClientOptions, type ElicitationCallback } from "tsmcp/client";
import type { CallToolResult, ElicitResult, InputRequest } from "tsmcp/types";

/**
 * Answers the guides' server's questions: a region, then a confirmation. Refuses URL mode. The
 * return type is spelled out: without it, TypeScript widens the branches' different `content`
 * objects into one type that `ElicitResult` does not accept.
 */
export const elicitationCallback: ElicitationCallback = async (params, context): Promise<ElicitResult> => {
  if (params.mode === "url") return { action: "decline" }; // a URL-mode question carries no form
  console.error(`round ${context.round}, ${context.key}: ${params.message}`);
  if (context.key === "region") return { action: "accept", content: { region: "eu-west-1" } };
  if (context.key === "confirm") return { action: "accept", content: { ok: true } };
  return { action: "cancel" };
};

/** Calls `provision` with the loop run by the `Client`: one call, three legs on the wire. */
export async function provision(url: string | URL): Promise<CallToolResult> {
  const client = await Client.connect(url, { elicitationCallback });
  try {
    const result = await client.callTool("provision", { name: "orders" }); // two rounds of questions
    return result;
  } finally {
    await client.close();
  }
}

/** Calls `import-rows` with progress reported as it comes; `signal` cancels the call. */
export async function importRows(url: string | URL, signal?: AbortSignal): Promise<CallToolResult> {
  const client = await Client.connect(url);
  try {
    return await client.callTool(
      "import-rows",
      { rows: 3 },
      {
        onProgress: ({ progress, total, message }) => console.error(`${progress}/${total} ${message}`),
        ...(signal === undefined ? {} : { signal }),
      },
    );
  } finally {
    await client.close();
  }
}

/** The answer to one embedded question, as the caller who drives the loop chooses it. */
function answer(key: string, request: InputRequest): ElicitResult {
  if (request.method !== "elicitation/create") return { action: "decline" };
  return key === "region"
    ? { action: "accept", content: { region: "us-east-1" } }
    : { action: "accept", content: { ok: true } };
}

/** Calls `provision` leg by leg: each `input_required` answer is fulfilled here and retried. */
export async function provisionByHand(url: string | URL): Promise<{ legs: number; result: CallToolResult }> {
  // No elicitationCallback, so declare the capability: the server asks only a client that has it.
  const client = await Client.connect(url, { capabilities: { elicitation: { form: {} } } });
  try {
    const args = { name: "orders" };
    let leg = await client.session.callTool("provision", args, { allowInputRequired: true });
    let legs = 1;
    while (leg.resultType === "input_required") {
      const inputResponses = Object.fromEntries(
        Object.entries(leg.inputRequests ?? {}).map(([key, request]) => [key, answer(key, request)]),
      );
      // Persist { inputResponses, requestState } here to resume in another process.
      leg = await client.session.callTool("provision", args, {
        allowInputRequired: true,
        inputResponses,
        ...(leg.requestState === undefined ? {} : { requestState: leg.requestState }),
      });
      legs++;
    }
    return { legs, result: leg };
  } finally {
    await client.close();
  }
}

/**
 * Listens for changes to `notes://1`, edits it, and reads it again once the server says it
 * changed. The same code runs in both eras: at 2026-07-28 `listen` opens a `subscriptions/listen`
 * stream; on a 2025-11-25 server (`protocolVersion: "legacy"`) it sends `resources/subscribe`, and
 * `close` sends `resources/unsubscribe`.
 */
export async function followNote(url: string | URL, options: ClientOptions = {}): Promise<string> {
  const client = await Client.connect(url, options);
  try {
    let changed!: () => void;
    const updated = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const subscription = client.listen({ resourceSubscriptions: ["notes://1"] }, (notification) => {
      if (notification.method === "notifications/resources/updated") changed();
    });
    await subscription.acknowledged; // { resourceSubscriptions: ["notes://1"] }: nothing is missed from here
    await client.callTool("edit-note", { id: "1", text: "Buy oat milk" });
    await updated;
    subscription.close();
    await subscription.closed;
    const [note] = (await client.readResource("notes://1")).contents;
    return typeof note?.text === "string" ? note.text : "";
  } finally {
    await client.close();
  }
}
