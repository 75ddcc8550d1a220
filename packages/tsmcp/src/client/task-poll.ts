/**
 * How often a client polls a task with `tasks/get`: at the server's `pollIntervalMs` (a default
 * when it suggests none), slowing down by a bounded factor while nothing changes. The client's own
 * back-off stops growing at a ceiling; the server's suggestion is honoured whatever its size, up to
 * a sanity bound against absurd values. Spec: https://github.com/modelcontextprotocol/ext-tasks
 * (specification/draft/tasks.md §Task Polling: clients SHOULD honour `pollIntervalMs`).
 */

/** The wait between two polls when the server suggests no `pollIntervalMs`: 1 000 ms. */
export const DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS = 1000;
/** The shortest wait between two polls, whatever the server suggests: 100 ms. */
export const TASK_POLL_INTERVAL_MIN_MS = 100;
/**
 * The longest wait the client's own back-off grows to: 30 000 ms, so a task's end is seen within
 * this long once the server's interval is shorter. A server suggestion above it is honoured as it
 * is (up to {@link TASK_POLL_INTERVAL_HINT_MAX_MS}): the client never polls faster than asked.
 */
export const TASK_POLL_INTERVAL_MAX_MS = 30_000;
/**
 * The longest server suggestion honoured: 3 600 000 ms (one hour). A `pollIntervalMs` above it
 * is taken as this, a sanity bound against absurd values.
 */
export const TASK_POLL_INTERVAL_HINT_MAX_MS = 3_600_000;
/**
 * How much the wait grows after each poll that saw no change (status or status message): 1.5x;
 * a change, or answers sent, start again from the server's interval.
 */
export const TASK_POLL_BACKOFF_FACTOR = 1.5;

/**
 * The wait before the next poll, in milliseconds: the server's `pollIntervalMs` (or
 * {@link DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS}), kept within {@link TASK_POLL_INTERVAL_MIN_MS} and
 * {@link TASK_POLL_INTERVAL_HINT_MAX_MS}, grown by {@link TASK_POLL_BACKOFF_FACTOR} per unchanged
 * poll up to {@link TASK_POLL_INTERVAL_MAX_MS}, and never shorter than that interval.
 */
export function nextPollDelayMs(pollIntervalMs: number | undefined, unchangedPolls: number): number {
  const suggested = pollIntervalMs ?? DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS;
  const base = Math.min(TASK_POLL_INTERVAL_HINT_MAX_MS, Math.max(TASK_POLL_INTERVAL_MIN_MS, suggested));
  const grown = base * TASK_POLL_BACKOFF_FACTOR ** Math.max(0, unchangedPolls);
  return Math.round(Math.max(base, Math.min(TASK_POLL_INTERVAL_MAX_MS, grown)));
}
