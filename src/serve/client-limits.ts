import { CallLimit } from "../surface/call-limit.js";

/**
 * Per-client concurrency caps: `running` calls at once and `waiting` more queued per client, the rest refused
 * (429). A client's limiter lives only while it has calls, so a scan from many addresses leaves nothing behind.
 */
export class ClientLimits {
  private readonly clients = new Map<string, { limit: CallLimit; holders: number }>();

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  /** A release function, or false when the client already has `running + waiting` calls. */
  async acquire(client: string, signal?: AbortSignal): Promise<(() => void) | false> {
    let entry = this.clients.get(client);
    if (!entry) {
      entry = { limit: new CallLimit(this.running, this.waiting), holders: 0 };
      this.clients.set(client, entry);
    }
    const held = entry;
    held.holders++;
    const release = await held.limit.acquire(signal);
    if (!release) {
      this.leave(client, held);
      return false;
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
      this.leave(client, held);
    };
  }

  private leave(client: string, entry: { holders: number }): void {
    entry.holders--;
    if (entry.holders === 0 && this.clients.get(client) === entry) this.clients.delete(client);
  }
}
