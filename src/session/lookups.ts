import { randomUUID } from "node:crypto";
import { DeadlineExceeded } from "../core/deadline.js";
import type { Clock } from "./clock.js";
import {
  failedLookup,
  pastDeadline,
  sessionClosed,
  shuttingDown,
  unexpected,
  withdrawn,
} from "./failed-lookup.js";
import {
  answeredAtOnce,
  type InFlightLookup,
  type InTurn,
  type Landing,
  type LookupResult,
  PENDING_MESSAGE,
  type PendingLookup,
  safeKeepAs,
} from "./landing.js";
import type { LookupCall } from "./lookup-calls.js";
import { type LookupKind, lookupKey } from "./lookup-key.js";
import type { Mailbox } from "./mailbox.js";
import { SlotQueue } from "./slot-queue.js";
import { Unsettled } from "./unsettled.js";

export interface LookupsOptions {
  clock: Clock;
  /** How long a turn waits, asked on every turn. */
  waitMs: () => number;
  /** A lookup's whole budget, counted from its ask. */
  lookupTimeoutMs: number;
  maxConcurrent: number;
  /** Where a lookup owed to a conversation lands. */
  mailbox: Mailbox;
  /** Hears each result as it lands for a conversation that asked (not those a closing session cancels). */
  onResult: (conversationId: string, kind: LookupKind, subject: string, result: LookupResult) => void;
}

export type Turn = Promise<InTurn<LookupResult> | PendingLookup>;

type Ended = "call" | "deadline" | "close" | "withdrawn" | "shutdown";

/** One conversation's claim on a lookup. */
interface Ticket {
  id: string;
  conversationId: string;
  /** Told "pending" at least once: the result is owed through the mailbox. */
  owed: boolean;
  waiters: Set<(result: LookupResult, keepAs: string) => void>;
}

interface Lookup {
  key: string;
  kind: LookupKind;
  subject: string;
  askedAt: number;
  deadlineAt: number;
  state: "queued" | "running" | "landed";
  tickets: Map<string, Ticket>;
  controller: AbortController;
  call: LookupCall;
  withdraw: () => void;
  deadlineTimer: unknown;
}

/** Grace for aborted calls to wind down when the session closes. */
const CLOSE_GRACE_MS = 2000;

/**
 * Lookups running in the background and the turns waiting on them: each lookup runs once for everyone who asks
 * the same, within a slot and its hard deadline; a turn waits at most its wait, then is told "pending", and what
 * it was owed lands in the mailbox for its conversation.
 */
export class Lookups {
  private readonly clock: Clock;
  private readonly slots: SlotQueue;
  private readonly inFlight = new Map<string, Lookup>();
  // Calls aborted at their deadline may still be winding down; close() waits for them too.
  private readonly unsettled: Unsettled;
  private closed = false;
  private draining = false;
  private idle: (() => void) | undefined;

  constructor(private readonly options: LookupsOptions) {
    this.clock = options.clock;
    this.slots = new SlotQueue(options.maxConcurrent);
    this.unsettled = new Unsettled(options.clock);
  }

  ask(
    kind: LookupKind,
    conversationId: string,
    subject: string,
    keyOptions: object,
    call: LookupCall,
    turn: AbortSignal | undefined,
  ): Turn {
    if (this.closed || this.draining) {
      const failure = this.closed ? sessionClosed : shuttingDown;
      return Promise.resolve(answeredAtOnce(kind, subject, failedLookup(kind, subject, failure)));
    }
    const key = lookupKey(kind, subject, keyOptions);
    const lookup = this.inFlight.get(key) ?? this.begin(key, kind, subject, call);
    let ticket = lookup.tickets.get(conversationId);
    if (!ticket) {
      ticket = { id: randomUUID(), conversationId, owed: false, waiters: new Set() };
      lookup.tickets.set(conversationId, ticket);
    }
    return this.waitInTurn(lookup, ticket, turn);
  }

  /** A turn waiting again on a lookup its conversation holds; undefined when the id is no longer in flight. */
  follow(conversationId: string, id: string, turn: AbortSignal | undefined): Turn | undefined {
    const held = this.ticketOf(conversationId, id);
    return held ? this.waitInTurn(held[0], held[1], turn) : undefined;
  }

  withdraw(conversationId: string, id: string): void {
    const held = this.ticketOf(conversationId, id);
    if (!held || held[1].waiters.size > 0) return;
    const [lookup, ticket] = held;
    lookup.tickets.delete(conversationId);
    if (ticket.owed) this.options.mailbox.release(ticket.id);
    if (lookup.tickets.size === 0)
      this.land(lookup, failedLookup(lookup.kind, lookup.subject, withdrawn), "withdrawn");
  }

  pending(conversationId: string): InFlightLookup[] {
    const listed: InFlightLookup[] = [];
    for (const lookup of this.inFlight.values()) {
      const ticket = lookup.tickets.get(conversationId);
      if (ticket && lookup.state !== "landed")
        listed.push({
          id: ticket.id,
          kind: lookup.kind,
          subject: lookup.subject,
          askedAt: lookup.askedAt,
          state: lookup.state,
        });
    }
    return listed;
  }

  async drain(graceMs: number): Promise<void> {
    this.draining = true;
    let grace: unknown;
    if (this.inFlight.size > 0)
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        grace = this.clock.setTimeout(resolve, graceMs);
      });
    this.clock.clearTimeout(grace);
    this.idle = undefined;
    for (const lookup of [...this.inFlight.values()])
      this.land(lookup, failedLookup(lookup.kind, lookup.subject, shuttingDown), "shutdown");
    await this.unsettled.settle(CLOSE_GRACE_MS);
  }

  /** Stops every lookup; resolves once each has landed or been cancelled. */
  async close(): Promise<void> {
    this.closed = true;
    for (const lookup of [...this.inFlight.values()])
      this.land(lookup, failedLookup(lookup.kind, lookup.subject, sessionClosed), "close");
    await this.unsettled.settle(CLOSE_GRACE_MS);
  }

  private waitInTurn(lookup: Lookup, ticket: Ticket, turn: AbortSignal | undefined): Turn {
    const { clock, mailbox } = this.options;
    return new Promise((resolve) => {
      let timer: unknown;
      const onResult = (result: LookupResult, keepAs: string) => {
        clock.clearTimeout(timer);
        turn?.removeEventListener("abort", stopWaiting);
        resolve({ ...result, id: ticket.id, keepAs });
      };
      function stopWaiting() {
        ticket.waiters.delete(onResult);
        clock.clearTimeout(timer);
        turn?.removeEventListener("abort", stopWaiting);
        if (!ticket.owed && lookup.state !== "landed")
          mailbox.owe(ticket.id, ticket.conversationId, lookup.kind, lookup.subject, lookup.deadlineAt);
        ticket.owed = true;
        resolve({ status: "pending", id: ticket.id, message: PENDING_MESSAGE });
      }
      if (turn?.aborted) return stopWaiting();
      ticket.waiters.add(onResult);
      timer = clock.setTimeout(stopWaiting, this.options.waitMs());
      turn?.addEventListener("abort", stopWaiting, { once: true });
    });
  }

  private begin(key: string, kind: LookupKind, subject: string, call: LookupCall): Lookup {
    const { lookupTimeoutMs } = this.options;
    const askedAt = this.clock.now();
    const lookup: Lookup = {
      key,
      kind,
      subject,
      askedAt,
      deadlineAt: askedAt + lookupTimeoutMs,
      state: "queued",
      tickets: new Map(),
      controller: new AbortController(),
      call,
      withdraw: () => {},
      deadlineTimer: undefined,
    };
    this.inFlight.set(key, lookup);
    // The deadline counts from the ask, queueing included: nobody waits longer than lookupTimeoutMs for a landing.
    lookup.deadlineTimer = this.clock.setTimeout(
      () => this.land(lookup, failedLookup(kind, subject, pastDeadline(lookupTimeoutMs)), "deadline"),
      lookupTimeoutMs,
    );
    lookup.withdraw = this.slots.enter(() => this.run(lookup));
    return lookup;
  }

  private run(lookup: Lookup): void {
    lookup.state = "running";
    const ms = Math.max(1, lookup.deadlineAt - this.clock.now());
    let calling: Promise<LookupResult>;
    try {
      calling = Promise.resolve(lookup.call(lookup.controller.signal, ms));
    } catch (err) {
      calling = Promise.reject(err);
    }
    const settled = calling
      .then(
        (result) => this.land(lookup, result, "call"),
        (err) => this.land(lookup, failedLookup(lookup.kind, lookup.subject, unexpected(err)), "call"),
      )
      // Nobody awaits a background lookup: whatever still went wrong must not reach the host unhandled.
      .catch(() => {});
    this.unsettled.track(settled);
  }

  private land(lookup: Lookup, result: LookupResult, ended: Ended): void {
    if (lookup.state === "landed") return;
    const wasRunning = lookup.state === "running";
    lookup.state = "landed";
    this.clock.clearTimeout(lookup.deadlineTimer);
    if (this.inFlight.get(lookup.key) === lookup) this.inFlight.delete(lookup.key);
    if (this.inFlight.size === 0) this.idle?.();
    // A call cut off at its deadline frees its slot at once: it has been told to stop, and one that ignores the
    // signal must not hold the queue up. Its late answer is dropped.
    if (wasRunning) this.slots.leave();
    else lookup.withdraw();
    if (ended !== "call") lookup.controller.abort(abortReason(ended));

    const keepAs = safeKeepAs(lookup.kind, lookup.subject, result);
    for (const ticket of lookup.tickets.values()) {
      // Landing runs in the background: nothing in it may throw, or a waiter is never answered and the
      // rejection reaches the host process unhandled.
      if (ended !== "close")
        try {
          this.options.onResult(ticket.conversationId, lookup.kind, lookup.subject, result);
        } catch {}
      // A conversation told "pending" that asked again and is waiting now gets the result in that turn instead.
      const answeredInTurn = ticket.waiters.size > 0;
      for (const waiter of ticket.waiters) waiter(result, keepAs);
      ticket.waiters.clear();
      // A closed session's conversations are gone: what is cancelled is not delivered.
      if (ticket.owed && !answeredInTurn && ended !== "close")
        this.deliver({
          id: ticket.id,
          conversationId: ticket.conversationId,
          kind: lookup.kind,
          result,
          keepAs,
        } as Landing);
      else if (ticket.owed) this.options.mailbox.release(ticket.id);
    }
  }

  private ticketOf(conversationId: string, id: string): [Lookup, Ticket] | undefined {
    for (const lookup of this.inFlight.values()) {
      const ticket = lookup.tickets.get(conversationId);
      if (ticket?.id === id) return [lookup, ticket];
    }
    return undefined;
  }

  private deliver(landing: Landing): void {
    this.unsettled.track(this.options.mailbox.post(landing).catch(() => false));
  }
}

function abortReason(ended: Exclude<Ended, "call">): Error {
  if (ended === "deadline") return new DeadlineExceeded();
  const failure = { close: sessionClosed, withdrawn, shutdown: shuttingDown }[ended];
  return new Error(failure.message);
}
