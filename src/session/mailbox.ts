import type { Failure } from "../core/status.js";
import { type MailboxStore, type MailItem, MemoryMailboxStore } from "../store/mailbox-store.js";
import { type Clock, systemClock } from "./clock.js";
import { failedLookup } from "./failed-lookup.js";
import { keepAsOf } from "./keep-as.js";
import type { Landing } from "./landing.js";
import type { LookupKind } from "./lookup-key.js";

/** A landed lookup as the mailbox keeps it: `id` orders a conversation's stream (`Last-Event-ID`). */
export interface Mail {
  id: string;
  at: number;
  landing: Landing;
}

export interface MailboxOptions {
  /** Memory (one process) by default; Redis for a fleet. */
  store?: MailboxStore;
  /** How often a fleet instance looks for lookups of stopped instances to land as failures (default 1 s). */
  reapEveryMs?: number;
  log?: (line: string) => void;
  /**
   * When a landing landed (`at`) and when the fleet's reaper looks: the session's clock, so a test moves the
   * store's retention and the reaper by hand.
   */
  clock?: Clock;
}

export const instanceLost: Failure = {
  status: "error",
  code: "instance_lost",
  message: "the instance running this lookup stopped before it finished; ask again",
};

/**
 * The one place results owed to a conversation live, owned by the session: it posts each lookup that outlived
 * its turn here, and every surface is a view of it (the HTTP event stream replays and follows it, MCP's
 * web_result and tasks take a landing by id, the library's `onLanded` hears what this session posts). A landing
 * is handed once, to its own conversation, whichever view takes it first. In a fleet the store is shared: a
 * result lands wherever its conversation's stream is, and a lookup whose instance stopped lands as a named
 * failure from another.
 */
export class Mailbox {
  readonly store: MailboxStore;
  private readonly posted = new Set<(landing: Landing) => void>();
  private reaper: unknown;
  private closed = false;
  private readonly log: (line: string) => void;
  private readonly clock: Clock;

  constructor(options: MailboxOptions = {}) {
    this.store = options.store ?? new MemoryMailboxStore();
    this.log = options.log ?? (() => {});
    this.clock = options.clock ?? systemClock;
    if (this.store.shared) this.reapEvery(options.reapEveryMs ?? 1000);
  }

  /** The session was told a turn ended before its lookup did: the conversation is owed it. */
  owe(
    landingId: string,
    conversationId: string,
    kind: LookupKind,
    subject: string,
    deadlineAt: number,
  ): void {
    this.store.lease({ id: landingId, conversationId, kind, subject, deadlineAt }).catch(() => {});
  }

  /** An owed lookup reached its conversation another way (in a later turn) or nobody wants it any more. */
  release(landingId: string): void {
    this.store.release(landingId).catch(() => {});
  }

  /** Keeps an owed lookup's landing for its conversation; resolves once it is stored (false: not delivered). */
  async post(landing: Landing): Promise<boolean> {
    const stored = await this.store.append(
      landing.conversationId,
      { id: landing.id, at: this.clock.now(), body: landing },
      { leased: true },
    );
    if (stored) for (const listener of this.posted) callSafely(listener, landing);
    return stored;
  }

  /** What this process's session posts (the library's `onLanded`); returns the unsubscribe function. */
  onPosted(listener: (landing: Landing) => void): () => void {
    this.posted.add(listener);
    return () => this.posted.delete(listener);
  }

  /** Landings after `lastId` (all kept when it is absent or no longer kept). */
  async after(conversationId: string, lastId?: string): Promise<Mail[]> {
    return (await this.store.after(conversationId, lastId)).map(toMail);
  }

  /** Landings no stream has taken yet. */
  async unhanded(conversationId: string): Promise<Mail[]> {
    return (await this.store.unhanded(conversationId)).map(toMail);
  }

  /**
   * Hands one landing to the view that asks for it by id (MCP's web_result, a task's result): only to the first
   * view that asks, and only within its own conversation. Undefined when it is not kept, or already handed.
   */
  async take(conversationId: string, id: string): Promise<Mail | undefined> {
    const mail = await this.find(conversationId, id);
    if (!mail || !(await this.store.markHanded(conversationId, id))) return undefined;
    return mail;
  }

  /** A kept landing of the conversation, handed or not (a view that took it reads it again). */
  async find(conversationId: string, id: string): Promise<Mail | undefined> {
    const item = (await this.store.after(conversationId)).find((kept) => kept.id === id);
    return item && toMail(item);
  }

  /** How long and how many landings a conversation keeps: every view's bound (tasks kept no longer). */
  get retention(): MailboxStore["retention"] {
    return this.store.retention;
  }

  status(): { backend: "memory" | "redis"; degraded: boolean } {
    return this.store.status();
  }

  /** Notes that a stream took a landing; true when it was the first view to take it. */
  markHanded(conversationId: string, id: string): Promise<boolean> {
    return this.store.markHanded(conversationId, id);
  }

  /** Every landing posted anywhere (the whole fleet with a shared store); `onGap`: re-read, some may be missed. */
  listen(listener: (mail: Mail) => void, onGap?: () => void): () => void {
    return this.store.listen((_conversationId, item) => listener(toMail(item)), onGap);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clock.clearTimeout(this.reaper);
    this.posted.clear();
    await this.store.close();
  }

  /** The fleet's reaper, on the clock: the next look is set when one starts, as an interval keeps its beat. */
  private reapEvery(ms: number): void {
    this.reaper = this.clock.setTimeout(() => {
      if (this.closed) return;
      this.reapEvery(ms);
      this.reap().catch((err: unknown) =>
        this.log(`mailbox: reaping failed: ${err instanceof Error ? err.message : String(err)}`),
      );
    }, ms);
    // A process whose work is done must not stay up for its reaper alone (the system clock's timers are Node's).
    (this.reaper as { unref?: () => void } | undefined)?.unref?.();
  }

  /** Lands the lookups of instances that stopped as `instance_lost`, each once across the fleet. */
  async reap(): Promise<number> {
    const orphans = await this.store.claimOrphans();
    for (const lease of orphans) {
      const kind = lease.kind as LookupKind;
      const result = failedLookup(kind, lease.subject, instanceLost);
      const landing = {
        id: lease.id,
        conversationId: lease.conversationId,
        kind,
        result,
        keepAs: keepAsOf(kind, lease.subject, result),
      } as Landing;
      await this.store.append(lease.conversationId, { id: lease.id, at: this.clock.now(), body: landing });
      this.log(`mailbox: a ${kind} lookup of a stopped instance landed as instance_lost`);
    }
    return orphans.length;
  }
}

function toMail(item: MailItem): Mail {
  return { id: item.id, at: item.at, landing: item.body as Landing };
}

function callSafely(listener: (landing: Landing) => void, landing: Landing): void {
  // One listener's failure must not keep the others from their landings.
  try {
    const heard = listener(landing) as unknown;
    if (heard instanceof Promise) heard.catch(() => {});
  } catch {}
}
