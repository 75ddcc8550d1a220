import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkSessionOptions } from "./options.js";
import { SessionRegistry } from "./registry.js";
import type { HttpSession, IncomingRequest } from "./session.js";

const IDLE_MS = 1000;

function registryWithOneSession(): { registry: SessionRegistry; session: HttpSession } {
  const options = checkSessionOptions("test", { sessionIdleTimeoutMs: IDLE_MS });
  const registry = new SessionRegistry(options, { keepAliveMs: 0, maxStreamBufferBytes: 1 << 20 }, () => {});
  const session = registry.create();
  registry.add(session);
  return { registry, session };
}

function request(id: number): IncomingRequest {
  return { id, abort: () => {} };
}

describe("the idle timeout of a session", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ends a session sessionIdleTimeoutMs after it was last found, not after it was added", () => {
    const { registry, session } = registryWithOneSession();
    vi.advanceTimersByTime(600);
    expect(registry.get(session.id as string)).toBe(session);
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(session.ended).toBe(false);
    vi.advanceTimersByTime(1);
    expect(session.ended).toBe(true);
    expect(registry.get(session.id as string)).toBeUndefined();
  });

  it("never ends a session serving a request, and counts from the end of its last request", () => {
    const { session } = registryWithOneSession();
    const first = request(1);
    session.beginRequest(first);
    vi.advanceTimersByTime(5 * IDLE_MS);
    expect(session.ended).toBe(false);
    session.finishRequest(first);
    vi.advanceTimersByTime(IDLE_MS - 100);
    const second = request(2);
    session.beginRequest(second);
    session.finishRequest(second);
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(session.ended).toBe(false);
    vi.advanceTimersByTime(1);
    expect(session.ended).toBe(true);
  });

  it("keeps one timer per session however many requests it serves", () => {
    const { registry, session } = registryWithOneSession();
    const timers = vi.getTimerCount();
    for (let id = 0; id < 100; id++) {
      registry.get(session.id as string);
      const served = request(id);
      session.beginRequest(served);
      session.finishRequest(served);
      vi.advanceTimersByTime(IDLE_MS / 10);
    }
    expect(vi.getTimerCount()).toBe(timers);
    expect(session.ended).toBe(false);
  });

  it("forgets the timer of a session that ends another way", () => {
    const { registry, session } = registryWithOneSession();
    const timers = vi.getTimerCount();
    registry.delete(session.id as string);
    expect(vi.getTimerCount()).toBe(timers - 1);
  });
});
