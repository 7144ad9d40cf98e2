import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/** One landed lookup as the event stream sends it: the synchronous answer's shape plus id and keepAs. */
export interface LandedEvent {
  conversationId: string;
  id: string;
  data: Record<string, unknown>;
}

export interface LandingHubOptions {
  /** WEBSIFT_REDIS_URL: landings travel between the instances of a fleet. */
  redisUrl?: string;
  log: (line: string) => void;
  /** A landing no stream was open for is kept this long (default 5 min)… */
  keepMs?: number;
  /** …and at most this many per conversation (default 20) and conversations overall (default 1000). */
  keepPerConversation?: number;
  keepConversations?: number;
}

const CHANNEL = "websift:landed";

interface Taken {
  conversationId: string;
  ids: string[];
}

/**
 * Delivers landings to the open event streams of their conversation. A landing nobody is listening for waits
 * (bounded in count and age) until a stream connects. With Redis, every landing is also published on one channel,
 * so a stream open on another instance of the fleet receives it.
 */
export class LandingHub {
  private readonly streams = new Map<string, Set<(event: LandedEvent) => void>>();
  private readonly kept = new Map<string, Array<{ event: LandedEvent; at: number }>>();
  private readonly instance = randomUUID();
  private readonly keepMs: number;
  private readonly perConversation: number;
  private readonly conversations: number;
  private readonly pub?: Redis;
  private readonly sub?: Redis;
  private readonly ready: Promise<void>;

  constructor(private readonly options: LandingHubOptions) {
    this.keepMs = options.keepMs ?? 5 * 60_000;
    this.perConversation = options.keepPerConversation ?? 20;
    this.conversations = options.keepConversations ?? 1000;
    if (!options.redisUrl) {
      this.ready = Promise.resolve();
      return;
    }
    // Pub/sub needs its own connections: a subscribed connection can do nothing else.
    // The subscription waits for Redis however long it is away (ioredis re-subscribes only channels it once
    // subscribed, so an instance started while Redis was down would otherwise stay deaf); a publish gives up fast.
    const connect = (maxRetriesPerRequest: number | null) =>
      new Redis(options.redisUrl as string, {
        retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
        maxRetriesPerRequest,
      });
    this.pub = connect(1);
    this.sub = connect(null);
    let down = false;
    for (const conn of [this.pub, this.sub]) {
      conn.on("error", (err: Error) => {
        if (down) return;
        down = true;
        options.log(`serve: redis for landings unavailable (${err.message}); streams see this instance only`);
      });
      conn.on("ready", () => {
        if (down) options.log("serve: redis for landings is back");
        down = false;
      });
    }
    this.sub.on("message", (_channel: string, message: string) => this.fromFleet(message));
    this.ready = this.sub.subscribe(CHANNEL).then(
      () => {},
      (err: Error) => options.log(`serve: subscribing to landings: ${err.message}`),
    );
  }

  /** Resolves once the fleet channel is subscribed (at once without Redis), or after `maxMs` with Redis away. */
  whenReady(maxMs = 3000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
    });
    return Promise.race([this.ready, late]).finally(() => clearTimeout(timer));
  }

  publish(event: LandedEvent): void {
    this.broadcast({ event, handed: this.deliver(event, true) });
  }

  /** Sends what was kept for the conversation first, then each new landing; returns the unsubscribe function. */
  subscribe(conversationId: string, listener: (event: LandedEvent) => void): () => void {
    let set = this.streams.get(conversationId);
    if (!set) {
      set = new Set();
      this.streams.set(conversationId, set);
    }
    set.add(listener);
    const waiting = this.kept.get(conversationId);
    this.kept.delete(conversationId);
    const now = Date.now();
    const fresh = (waiting ?? []).filter(({ at }) => now - at <= this.keepMs);
    for (const { event } of fresh) listener(event);
    if (fresh.length > 0) this.broadcast({ taken: { conversationId, ids: fresh.map((k) => k.event.id) } });
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.streams.get(conversationId) === set) this.streams.delete(conversationId);
    };
  }

  async close(): Promise<void> {
    this.streams.clear();
    this.kept.clear();
    // QUIT only where Redis is there to answer it: queued on a connection that is away, it would wait forever.
    const conns = [this.pub, this.sub].filter((c) => c !== undefined);
    await Promise.allSettled(conns.filter((c) => c.status === "ready").map((c) => c.quit()));
    for (const c of conns) c.disconnect();
  }

  /** A landing for the fleet, or word that landings kept everywhere were delivered here. */
  private broadcast(message: { event?: LandedEvent; handed?: boolean; taken?: Taken }): void {
    this.pub?.publish(CHANNEL, JSON.stringify({ from: this.instance, ...message })).catch((err: Error) => {
      this.options.log(`serve: publishing on the landing channel: ${err.message}`);
    });
  }

  private fromFleet(message: string): void {
    try {
      const { from, event, handed, taken } = JSON.parse(message) as {
        from: string;
        event?: LandedEvent;
        handed?: boolean;
        taken?: Taken;
      };
      if (from === this.instance) return;
      // A landing this instance hands to a stream first tells the others to drop the copies they keep.
      if (typeof event?.conversationId === "string" && this.deliver(event, !handed) && !handed)
        this.broadcast({ taken: { conversationId: event.conversationId, ids: [event.id] } });
      if (typeof taken?.conversationId === "string" && Array.isArray(taken.ids)) this.forget(taken);
    } catch {
      this.options.log("serve: ignored a malformed landing on the fleet channel");
    }
  }

  /**
   * To this instance's open streams (true), else kept for one to connect when `keep`. A landing already handed
   * to a stream somewhere is not kept; every instance without a stream keeps an unheard one, and the first to
   * hand it over (live or kept) tells the others to drop their copy, so it is delivered once.
   */
  private deliver(event: LandedEvent, keep: boolean): boolean {
    const listeners = this.streams.get(event.conversationId);
    if (listeners?.size) {
      for (const listener of listeners) listener(event);
      return true;
    }
    if (keep) this.keep(event);
    return false;
  }

  private forget({ conversationId, ids }: Taken): void {
    const list = this.kept.get(conversationId);
    if (!list) return;
    const rest = list.filter((k) => !ids.includes(k.event.id));
    if (rest.length > 0) this.kept.set(conversationId, rest);
    else this.kept.delete(conversationId);
  }

  private keep(event: LandedEvent): void {
    const now = Date.now();
    let list = this.kept.get(event.conversationId);
    if (!list) {
      if (this.kept.size >= this.conversations) this.dropOldest(now);
      list = [];
      this.kept.set(event.conversationId, list);
    }
    list.push({ event, at: now });
    while (list.length > this.perConversation || (list[0] && now - list[0].at > this.keepMs)) list.shift();
  }

  /** Expired conversations go first; if none, the one kept longest makes room. */
  private dropOldest(now: number): void {
    for (const [id, list] of this.kept) {
      const last = list[list.length - 1];
      if (!last || now - last.at > this.keepMs) this.kept.delete(id);
    }
    if (this.kept.size >= this.conversations) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
  }
}
