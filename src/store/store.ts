/**
 * The one small interface behind the search cache, the page cache, provider suspensions, region cooldowns and
 * rate limiters. Backends: memory (per process) here; sqlite and redis share the same contract.
 */
export interface Store {
  readonly kind: string;
  get<T>(key: string): Promise<T | undefined>;
  /** Several keys in one read where the backend can (one MGET on Redis); in the order given. */
  getMany?<T>(keys: readonly string[]): Promise<(T | undefined)[]>;
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Books the next slot of a limiter that lets one call through every `intervalMs`: returns how long the caller
   * must wait before going (0 = now). Atomic per backend, so parallel callers queue instead of colliding. A slot
   * more than `maxWaitMs` away is not booked (the wait is returned all the same): a caller that will not wait
   * must not push the queue out for those that do.
   */
  reserveSlot(key: string, intervalMs: number, maxWaitMs?: number): Promise<number>;
  close(): Promise<void>;
}

export class MemoryStore implements Store {
  readonly kind = "memory";
  private readonly entries = new Map<string, { value: unknown; expires: number }>();
  private readonly slots = new Map<string, number>();

  constructor(private readonly maxEntries = 5000) {}

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: Date.now() + ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async reserveSlot(key: string, intervalMs: number, maxWaitMs = Number.POSITIVE_INFINITY): Promise<number> {
    const now = Date.now();
    const next = Math.max(now, this.slots.get(key) ?? 0);
    if (next - now <= maxWaitMs) this.slots.set(key, next + intervalMs);
    return next - now;
  }

  async close(): Promise<void> {}
}
