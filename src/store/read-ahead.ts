import type { Store } from "./store.js";

/**
 * A view of `store` that answers `keys` from one read started now, each once: what a search step will read
 * before its first request (its cooldowns, its suspension) goes out with the search's cache read, one round
 * trip to a shared store instead of one after the other. A key written or deleted through the view is read
 * afresh; every other call goes to `store`, which the view never closes.
 */
export function readAhead(store: Store, keys: readonly string[]): Store {
  if (keys.length === 0) return store;
  const all = store.getMany ? store.getMany(keys) : Promise.all(keys.map((key) => store.get(key)));
  // Read or not, a failed read must not surface as an unhandled rejection; a caller's read retries it alone.
  all.catch(() => {});
  const pending = new Map(keys.map((key, i) => [key, i]));
  return {
    kind: store.kind,
    get<T>(key: string): Promise<T | undefined> {
      const i = pending.get(key);
      if (i === undefined) return store.get<T>(key);
      pending.delete(key);
      return all.then(
        (values) => values[i] as T | undefined,
        () => store.get<T>(key),
      );
    },
    set(key, value, ttlMs) {
      pending.delete(key);
      return store.set(key, value, ttlMs);
    },
    delete(key) {
      pending.delete(key);
      return store.delete(key);
    },
    reserveSlot: (key, intervalMs, maxWaitMs) => store.reserveSlot(key, intervalMs, maxWaitMs),
    close: async () => {},
  };
}
