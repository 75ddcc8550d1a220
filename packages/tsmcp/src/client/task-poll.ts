/**
 * How often a client polls a task with `tasks/get`: at the server's `pollIntervalMs` (a default
 * when it suggests none), slowing down by a bounded factor while nothing changes, never faster than
 * a floor and never slower than a ceiling. Spec: https://github.com/modelcontextprotocol/ext-tasks
 * (specification/draft/tasks.md §Task Polling: clients SHOULD honour `pollIntervalMs`).
 */

/** The wait between two polls when the server suggests no `pollIntervalMs`: 1 000 ms. */
export const DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS = 1000;
/** The shortest wait between two polls, whatever the server suggests: 100 ms. */
export const TASK_POLL_INTERVAL_MIN_MS = 100;
/**
 * The longest wait between two polls: 30 000 ms. The back-off stops growing there, and a larger
 * server suggestion is capped to it, so a task's end is seen within this long.
 */
export const TASK_POLL_INTERVAL_MAX_MS = 30_000;
/**
 * How much the wait grows after each poll that saw no change (status or status message): 1.5x;
 * a change, or answers sent, start again from the server's interval.
 */
export const TASK_POLL_BACKOFF_FACTOR = 1.5;

/**
 * The wait before the next poll, in milliseconds: `pollIntervalMs` (or the default) grown by
 * {@link TASK_POLL_BACKOFF_FACTOR} per unchanged poll, within the floor and the ceiling.
 */
export function nextPollDelayMs(pollIntervalMs: number | undefined, unchangedPolls: number): number {
  const base = pollIntervalMs ?? DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS;
  const grown = base * TASK_POLL_BACKOFF_FACTOR ** Math.max(0, unchangedPolls);
  return Math.round(Math.min(TASK_POLL_INTERVAL_MAX_MS, Math.max(TASK_POLL_INTERVAL_MIN_MS, grown)));
}
