/** One result owed to a conversation: its id (the lookup's), when it landed, and what landed (JSON). */
export interface MailItem {
  id: string;
  at: number;
  body: unknown;
}

/** A lookup some instance owes a conversation: if that instance dies, another one lands it as a failure. */
export interface Lease {
  id: string;
  conversationId: string;
  kind: string;
  subject: string;
  deadlineAt: number;
}

export interface MailboxRetention {
  /** Items are kept this long after they land (default 15 min)… */
  keepMs?: number;
  /** …at most this many per conversation, the oldest going first (default 100)… */
  perConversation?: number;
  /** …and, in one process's memory, for at most this many conversations (default 1000). */
  conversations?: number;
}

export const DEFAULT_KEEP_MS = 15 * 60_000;
export const DEFAULT_PER_CONVERSATION = 100;

/**
 * Where results owed to conversations live until their streams take them: per conversation, in landing order,
 * bounded in age and count. In a fleet (Redis) every instance sees every item, and `listen` hears each append
 * anywhere; `onGap` says the fleet channel was away, so a listener re-reads what it may have missed.
 */
export interface MailboxStore {
  /** Shared by a fleet (leases and orphans mean something only then). */
  readonly shared: boolean;
  /** How long and how many items are kept: the one bound on everything a conversation is owed, on every surface. */
  readonly retention: Required<Pick<MailboxRetention, "keepMs" | "perConversation">>;
  /** Degraded: the fleet's store is away, so landings stay on this instance until it is back. */
  status(): { backend: "memory" | "redis"; degraded: boolean };
  /**
   * Appends an item once (an id already there is not appended again). `leased`: only while this instance still
   * holds the item's lease, so a lookup another instance already landed as lost is not delivered twice.
   * False when nothing was appended.
   */
  append(conversationId: string, item: MailItem, options?: { leased?: boolean }): Promise<boolean>;
  /** Items after the one with `lastId`, oldest first; every item kept when `lastId` is unknown or absent. */
  after(conversationId: string, lastId?: string): Promise<MailItem[]>;
  /** Items no stream has taken yet. */
  unhanded(conversationId: string): Promise<MailItem[]>;
  /** Notes that a view took the item: true for the first taker only (across the fleet while it is reachable). */
  markHanded(conversationId: string, id: string): Promise<boolean>;
  listen(listener: (conversationId: string, item: MailItem) => void, onGap?: () => void): () => void;
  lease(lease: Lease): Promise<void>;
  /** Drops a lease whose lookup reached its conversation another way (answered in a turn, withdrawn). */
  release(id: string): Promise<void>;
  /** Takes over leases of instances that stopped; each is returned to one caller only. */
  claimOrphans(): Promise<Lease[]>;
  close(): Promise<void>;
}

interface Box {
  items: MailItem[];
  handed: Set<string>;
  ids: Set<string>;
}

/** One process's mailbox: what `websift serve` without Redis and every library session use. */
export class MemoryMailboxStore implements MailboxStore {
  readonly shared = false;
  status() {
    return { backend: "memory" as const, degraded: false };
  }
  private readonly boxes = new Map<string, Box>();
  private readonly listeners = new Set<(conversationId: string, item: MailItem) => void>();
  readonly retention: MailboxStore["retention"];
  private readonly keepMs: number;
  private readonly perConversation: number;
  private readonly conversations: number;

  constructor(
    retention: MailboxRetention = {},
    private readonly now: () => number = Date.now,
  ) {
    this.keepMs = retention.keepMs ?? DEFAULT_KEEP_MS;
    this.perConversation = retention.perConversation ?? DEFAULT_PER_CONVERSATION;
    this.conversations = retention.conversations ?? 1000;
    this.retention = { keepMs: this.keepMs, perConversation: this.perConversation };
  }

  async append(conversationId: string, item: MailItem): Promise<boolean> {
    return this.appendNow(conversationId, item);
  }

  /** Synchronous for the Redis store's fallback, which must not reorder what it appends. */
  appendNow(conversationId: string, item: MailItem): boolean {
    const box = this.box(conversationId, true) as Box;
    if (box.ids.has(item.id)) return false;
    box.ids.add(item.id);
    box.items.push(item);
    this.prune(box);
    // Most recently written last, so the conversation kept longest unused is the first to make room.
    this.boxes.delete(conversationId);
    this.boxes.set(conversationId, box);
    for (const listener of this.listeners) listener(conversationId, item);
    return true;
  }

  async after(conversationId: string, lastId?: string): Promise<MailItem[]> {
    return afterId(this.kept(conversationId), lastId);
  }

  async unhanded(conversationId: string): Promise<MailItem[]> {
    const box = this.box(conversationId, false);
    return this.kept(conversationId).filter((item) => !box?.handed.has(item.id));
  }

  async markHanded(conversationId: string, id: string): Promise<boolean> {
    const box = this.box(conversationId, false);
    if (!box || box.handed.has(id)) return false;
    box.handed.add(id);
    return true;
  }

  listen(listener: (conversationId: string, item: MailItem) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async lease(): Promise<void> {}
  async release(): Promise<void> {}
  async claimOrphans(): Promise<Lease[]> {
    return [];
  }

  async close(): Promise<void> {
    this.boxes.clear();
    this.listeners.clear();
  }

  private kept(conversationId: string): MailItem[] {
    const box = this.box(conversationId, false);
    if (!box) return [];
    this.prune(box);
    return [...box.items];
  }

  private box(conversationId: string, create: boolean): Box | undefined {
    let box = this.boxes.get(conversationId);
    if (!box && create) {
      if (this.boxes.size >= this.conversations) {
        const oldest = this.boxes.keys().next().value;
        if (oldest !== undefined) this.boxes.delete(oldest);
      }
      box = { items: [], handed: new Set(), ids: new Set() };
      this.boxes.set(conversationId, box);
    }
    return box;
  }

  private prune(box: Box): void {
    const now = this.now();
    while (
      box.items.length > this.perConversation ||
      (box.items[0] !== undefined && now - box.items[0].at > this.keepMs)
    ) {
      const gone = box.items.shift() as MailItem;
      box.handed.delete(gone.id);
      box.ids.delete(gone.id);
    }
  }
}

/** The items after `lastId`; all of them when it is absent or no longer kept (nothing kept is skipped). */
export function afterId(items: MailItem[], lastId: string | undefined): MailItem[] {
  if (lastId === undefined) return items;
  const at = items.findIndex((item) => item.id === lastId);
  return at === -1 ? items : items.slice(at + 1);
}
