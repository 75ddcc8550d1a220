/**
 * The storage of a test authorization server: an `oidc-provider` adapter over one `Map` per
 * provider, so that the provider runs on a storage it was given (and says nothing about its
 * built-in development one) and two providers in one process share nothing. Entries expire after
 * the `expiresIn` seconds oidc-provider gives them.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";

interface Entry {
  readonly value: unknown;
  /** Epoch milliseconds after which the entry is gone; undefined: kept. */
  readonly expiresAt: number | undefined;
}

/** A fresh, empty storage: the `adapter` option of one `Provider`. */
export function memoryAdapter(): AdapterFactory {
  const entries = new Map<string, Entry>();
  const get = (key: string): unknown => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  };
  const set = (key: string, value: unknown, expiresIn?: number) => {
    entries.set(key, {
      value,
      expiresAt: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000,
    });
  };
  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    const find = async (id: string) => get(key(id)) as AdapterPayload | undefined;
    return {
      async upsert(id, payload, expiresIn) {
        if (model === "Session" && payload.uid !== undefined) set(`sessionUid:${payload.uid}`, id, expiresIn);
        if (payload.grantId !== undefined) {
          const grant = `grant:${payload.grantId}`;
          set(grant, [...((get(grant) as string[] | undefined) ?? []), key(id)]);
        }
        if (payload.userCode !== undefined) set(`userCode:${payload.userCode}`, id, expiresIn);
        set(key(id), payload, expiresIn);
      },
      find,
      findByUid: async (uid) => find(get(`sessionUid:${uid}`) as string),
      findByUserCode: async (userCode) => find(get(`userCode:${userCode}`) as string),
      async consume(id) {
        const payload = get(key(id)) as AdapterPayload | undefined;
        if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        entries.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        const grant = `grant:${grantId}`;
        for (const token of (get(grant) as string[] | undefined) ?? []) entries.delete(token);
        entries.delete(grant);
      },
    };
  };
}
