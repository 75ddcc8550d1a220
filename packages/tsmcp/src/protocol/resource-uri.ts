/**
 * Which resource URIs a subscription covers: the watched URI itself and every resource under it,
 * as `subscriptions/listen` matches `resourceSubscriptions`; one rule for both sides.
 * Spec: basic/patterns/subscriptions.
 */

/** True when `uri` is `watched` or a resource under it (`notes://a` covers `notes://a/b`, not `notes://ab`). */
export function resourceCovers(watched: string, uri: string): boolean {
  return uri === watched || uri.startsWith(watched.endsWith("/") ? watched : `${watched}/`);
}
