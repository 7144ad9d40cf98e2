import { randomUUID } from "node:crypto";
import {
  ANSWER_OPTIONS,
  asBadInput,
  CONVERSATION_ID,
  checkArgument,
  QUERY,
  READ_OPTIONS,
  SEARCH_OPTIONS,
  SESSION_OPTIONS,
  TURN_OPTIONS,
  URL_ARGUMENT,
} from "../arguments.js";
import { Deadline, DeadlineExceeded } from "../core/deadline.js";
import type { AnswerOptions, AnswerResult } from "../ground/answer.js";
import type { ReadOptions, ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { SearchOptions } from "../search/options.js";
import { MemoryMailboxStore } from "../store/mailbox-store.js";
import type { Websift } from "../websift.js";
import { type Clock, systemClock } from "./clock.js";
import {
  badInput,
  failedLookup,
  pastDeadline,
  sessionClosed,
  shuttingDown,
  unexpected,
  withdrawn,
} from "./failed-lookup.js";
import { keepAsOf } from "./keep-as.js";
import { type LookupKind, lookupKey } from "./lookup-key.js";
import { Mailbox } from "./mailbox.js";
import { SlotQueue } from "./slot-queue.js";
import { createWebMemory } from "./web-memory.js";

export const PENDING_MESSAGE = "still looking, it reaches you by itself";

export interface TurnOptions {
  /** Ends the caller's wait (its turn), never the lookup: a lookup whose turn was cancelled still lands. */
  signal?: AbortSignal;
}
// The session owns each lookup's budget and signal; per-turn callbacks cannot be shared between callers.
export type SessionSearchOptions = Omit<SearchOptions, "signal" | "deadline" | "timeoutMs" | "onAttempt"> &
  TurnOptions;
export type SessionReadOptions = Omit<ReadOptions, "deadline"> & TurnOptions;
export type SessionAnswerOptions = Omit<AnswerOptions, "signal" | "timeoutMs" | "onProgress"> & TurnOptions;

export interface PendingLookup {
  status: "pending";
  id: string;
  message: string;
}
/** A result answered within the wait, with the lookup's id and the line to keep after this turn. */
export type InTurn<T> = T & { id: string; keepAs: string };

interface LandingOf<K extends LookupKind, R> {
  id: string;
  conversationId: string;
  kind: K;
  result: R;
  keepAs: string;
}
export type Landing =
  | LandingOf<"search", SearchResponse>
  | LandingOf<"read", ReadResult>
  | LandingOf<"answer", AnswerResult>;

export interface InFlightLookup {
  id: string;
  kind: LookupKind;
  subject: string;
  askedAt: number;
  state: "queued" | "running";
}

export interface SessionOptions {
  /** A function is asked on every turn: the operator's setting may change while the session lives. */
  waitSeconds?: number | (() => number | undefined);
  deadlineSeconds?: number;
  maxConcurrent?: number;
  /** Receives each lookup that outlived its turn, once, for the conversation that asked. */
  onLanded?: (landing: Landing) => void | Promise<void>;
  /**
   * Where results owed to conversations live (a memory mailbox of this session by default; a shared one for a
   * fleet). `onLanded` hears what this session posts to it; the caller closes a mailbox it passed in.
   */
  mailbox?: Mailbox;
  clock?: Clock;
}

export interface Session {
  /** The results owed to this session's conversations: surfaces replay and follow them from here. */
  readonly mailbox: Mailbox;
  search(
    conversationId: string,
    query: string,
    options?: SessionSearchOptions,
  ): Promise<InTurn<SearchResponse> | PendingLookup>;
  read(
    conversationId: string,
    url: string,
    options?: SessionReadOptions,
  ): Promise<InTurn<ReadResult> | PendingLookup>;
  answer(
    conversationId: string,
    query: string,
    options?: SessionAnswerOptions,
  ): Promise<InTurn<AnswerResult> | PendingLookup>;
  /**
   * Waits, as a turn does, on a lookup the conversation was told is pending: its result within the wait (then it
   * is not delivered through onLanded), else pending again. Undefined when the id is no longer in flight.
   */
  follow(
    conversationId: string,
    id: string,
    options?: TurnOptions,
  ): Promise<InTurn<LookupResult> | PendingLookup> | undefined;
  /**
   * The conversation gives the lookup up: nothing lands for it, and a lookup nobody else holds is stopped. For a
   * caller that never learnt the id (an MCP call cancelled before its reply); a turn of the same conversation
   * still waiting on it keeps it.
   */
  withdraw(conversationId: string, id: string): void;
  /** The conversation's lookups still in flight. */
  pending(conversationId: string): InFlightLookup[];
  /** Recent pages and searches of one conversation, or of the whole session; "" when there are none. */
  liveState(conversationId?: string): string;
  /**
   * For a process told to stop: takes no new lookup (each answers `shutting_down` at once), lets those in flight
   * finish for up to `graceMs`, then stops the rest, which land as `shutting_down` to the conversations owed them.
   * Resolves once every landing is in the mailbox. Call `close()` after it.
   */
  drain(graceMs: number): Promise<void>;
  /** Stops every lookup; resolves once each has landed or been cancelled. */
  close(): Promise<void>;
}

export type SessionWebsift = Pick<Websift, "search" | "read" | "answer">;

export type LookupResult = SearchResponse | ReadResult | AnswerResult;
type Call = (signal: AbortSignal, ms: number) => Promise<LookupResult>;
type Ended = "call" | "deadline" | "close" | "withdrawn" | "shutdown";

/** One conversation's claim on a lookup. */
interface Ticket {
  id: string;
  conversationId: string;
  /** Told "pending" at least once: the result is owed through onLanded. */
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
  call: Call;
  withdraw: () => void;
  deadlineTimer: unknown;
}

/** Grace for aborted calls to wind down when the session closes. */
const CLOSE_GRACE_MS = 2000;

/**
 * Lookups that never hold a turn: a caller waits at most `waitSeconds`, then goes on with "pending" while the
 * lookup runs on and lands later through `onLanded`, to the conversation that asked.
 */
export function createSession(websift: SessionWebsift, given?: SessionOptions): Session {
  const options = checkArgument("createSession", "options", SESSION_OPTIONS, given);
  const clock = options.clock ?? systemClock;
  const wait = options.waitSeconds;
  const waitMs = () => seconds((typeof wait === "function" ? wait() : wait) ?? 3, "waitSeconds") * 1000;
  if (typeof wait !== "function") waitMs();
  const deadlineSeconds = seconds(options.deadlineSeconds ?? 20, "deadlineSeconds");
  const slots = new SlotQueue(options.maxConcurrent ?? 3);
  const memory = createWebMemory(clock);
  const inFlight = new Map<string, Lookup>();
  // The session's own mailbox keeps its time, so its retention follows the clock a test moves.
  const mailbox =
    options.mailbox ?? new Mailbox({ store: new MemoryMailboxStore({}, () => clock.now()), clock });
  const onLanded = options.onLanded;
  const stopHearing = onLanded ? mailbox.onPosted((landing) => onLanded(landing)) : () => {};
  // Calls aborted at their deadline may still be winding down; close() waits for them too.
  const unsettled = new Set<Promise<unknown>>();
  let closed = false;
  let draining = false;
  let idle: (() => void) | undefined;

  function ask(
    kind: LookupKind,
    conversationId: string,
    subject: string,
    keyOptions: object,
    call: Call,
    turn: AbortSignal | undefined,
  ): Promise<InTurn<LookupResult> | PendingLookup> {
    if (closed || draining) {
      const failure = closed ? sessionClosed : shuttingDown;
      return Promise.resolve(answeredAtOnce(kind, subject, failedLookup(kind, subject, failure)));
    }
    const key = lookupKey(kind, subject, keyOptions);
    const lookup = inFlight.get(key) ?? begin(key, kind, subject, call);
    let ticket = lookup.tickets.get(conversationId);
    if (!ticket) {
      ticket = { id: randomUUID(), conversationId, owed: false, waiters: new Set() };
      lookup.tickets.set(conversationId, ticket);
    }
    return waitInTurn(lookup, ticket, turn);
  }

  function answeredAtOnce(kind: LookupKind, subject: string, result: LookupResult): InTurn<LookupResult> {
    return { ...result, id: randomUUID(), keepAs: keepAsOf(kind, subject, result) };
  }

  /** Bad arguments answer at once, as a failure of the kind's shape, before anything is queued. */
  function checked<K extends LookupKind>(
    kind: K,
    conversationId: unknown,
    subject: unknown,
    options: unknown,
  ): { ok: true; options: Record<string, unknown> } | { ok: false; refusal: Promise<InTurn<LookupResult>> } {
    const schema = kind === "search" ? SEARCH_OPTIONS : kind === "read" ? READ_OPTIONS : ANSWER_OPTIONS;
    try {
      checkArgument(kind, "conversationId", CONVERSATION_ID, conversationId);
      checkArgument(kind, kind === "read" ? "url" : "query", kind === "read" ? URL_ARGUMENT : QUERY, subject);
      return {
        ok: true,
        options: checkArgument(kind, "options", schema, options) as Record<string, unknown>,
      };
    } catch (err) {
      const shown = typeof subject === "string" ? subject : "";
      const result = failedLookup(kind, shown, badInput(asBadInput(err).message));
      return { ok: false, refusal: Promise.resolve(answeredAtOnce(kind, shown, result)) };
    }
  }

  function waitInTurn(
    lookup: Lookup,
    ticket: Ticket,
    turn: AbortSignal | undefined,
  ): Promise<InTurn<LookupResult> | PendingLookup> {
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
      timer = clock.setTimeout(stopWaiting, waitMs());
      turn?.addEventListener("abort", stopWaiting, { once: true });
    });
  }

  function begin(key: string, kind: LookupKind, subject: string, call: Call): Lookup {
    const askedAt = clock.now();
    const lookup: Lookup = {
      key,
      kind,
      subject,
      askedAt,
      deadlineAt: askedAt + deadlineSeconds * 1000,
      state: "queued",
      tickets: new Map(),
      controller: new AbortController(),
      call,
      withdraw: () => {},
      deadlineTimer: undefined,
    };
    inFlight.set(key, lookup);
    // The deadline counts from the ask, queueing included: nobody waits longer than deadlineSeconds for a landing.
    lookup.deadlineTimer = clock.setTimeout(
      () => land(lookup, failedLookup(kind, subject, pastDeadline(deadlineSeconds)), "deadline"),
      deadlineSeconds * 1000,
    );
    lookup.withdraw = slots.enter(() => run(lookup));
    return lookup;
  }

  function run(lookup: Lookup): void {
    lookup.state = "running";
    const ms = Math.max(1, lookup.deadlineAt - clock.now());
    let calling: Promise<LookupResult>;
    try {
      calling = Promise.resolve(lookup.call(lookup.controller.signal, ms));
    } catch (err) {
      calling = Promise.reject(err);
    }
    const settled = calling
      .then(
        (result) => land(lookup, result, "call"),
        (err) => land(lookup, failedLookup(lookup.kind, lookup.subject, unexpected(err)), "call"),
      )
      // Nobody awaits a background lookup: whatever still went wrong must not reach the host unhandled.
      .catch(() => {});
    unsettled.add(settled);
    settled.finally(() => unsettled.delete(settled));
  }

  function land(lookup: Lookup, result: LookupResult, ended: Ended): void {
    if (lookup.state === "landed") return;
    const wasRunning = lookup.state === "running";
    lookup.state = "landed";
    clock.clearTimeout(lookup.deadlineTimer);
    if (inFlight.get(lookup.key) === lookup) inFlight.delete(lookup.key);
    if (inFlight.size === 0) idle?.();
    // A call cut off at its deadline frees its slot at once: it has been told to stop, and one that ignores the
    // signal must not hold the queue up. Its late answer is dropped.
    if (wasRunning) slots.leave();
    else lookup.withdraw();
    if (ended !== "call") lookup.controller.abort(abortReason(ended));

    const keepAs = safeKeepAs(lookup.kind, lookup.subject, result);
    for (const ticket of lookup.tickets.values()) {
      // Landing runs in the background: nothing in it may throw, or a waiter is never answered and the
      // rejection reaches the host process unhandled.
      if (ended !== "close")
        try {
          remember(ticket.conversationId, lookup, result);
        } catch {}
      // A conversation told "pending" that asked again and is waiting now gets the result in that turn instead.
      const answeredInTurn = ticket.waiters.size > 0;
      for (const waiter of ticket.waiters) waiter(result, keepAs);
      ticket.waiters.clear();
      // A closed session's conversations are gone: what is cancelled is not delivered.
      if (ticket.owed && !answeredInTurn && ended !== "close")
        deliver({
          id: ticket.id,
          conversationId: ticket.conversationId,
          kind: lookup.kind,
          result,
          keepAs,
        } as Landing);
      else if (ticket.owed) mailbox.release(ticket.id);
    }
  }

  function ticketOf(conversationId: string, id: string): [Lookup, Ticket] | undefined {
    for (const lookup of inFlight.values()) {
      const ticket = lookup.tickets.get(conversationId);
      if (ticket?.id === id) return [lookup, ticket];
    }
    return undefined;
  }

  function remember(conversationId: string, lookup: Lookup, result: LookupResult): void {
    if (result.status !== "ok" && result.status !== "partial") return;
    if (lookup.kind === "read") {
      const page = result as ReadResult;
      memory.rememberRead(conversationId, { ...page, url: page.finalUrl || lookup.subject });
    } else if (lookup.kind === "search") {
      memory.rememberSearch(conversationId, lookup.subject, (result as SearchResponse).results);
    } else {
      memory.rememberSearch(conversationId, lookup.subject, (result as AnswerResult).sources);
    }
  }

  /** Waits for calls winding down and landings being stored, at most CLOSE_GRACE_MS. */
  async function settle(): Promise<void> {
    let grace: unknown;
    await Promise.race([
      Promise.allSettled([...unsettled]),
      new Promise<void>((resolve) => {
        grace = clock.setTimeout(resolve, CLOSE_GRACE_MS);
      }),
    ]);
    clock.clearTimeout(grace);
  }

  function deliver(landing: Landing): void {
    const posting = mailbox.post(landing).catch(() => false);
    unsettled.add(posting);
    posting.finally(() => unsettled.delete(posting));
  }

  return {
    mailbox,
    search(conversationId, query, options) {
      const args = checked("search", conversationId, query, options);
      if (!args.ok) return args.refusal as Promise<InTurn<SearchResponse>>;
      const { signal, ...rest } = args.options as SessionSearchOptions;
      const call: Call = (lookupSignal, ms) =>
        websift.search(query, { ...rest, signal: lookupSignal, timeoutMs: ms });
      return ask("search", conversationId, query, rest, call, signal) as Promise<
        InTurn<SearchResponse> | PendingLookup
      >;
    },
    read(conversationId, url, options) {
      const args = checked("read", conversationId, url, options);
      if (!args.ok) return args.refusal as Promise<InTurn<ReadResult>>;
      const { signal, ...rest } = args.options as SessionReadOptions;
      // The reader's page cache answers a page read again at once: the session adds nothing in front of it.
      const call: Call = (lookupSignal, ms) =>
        websift.read(url, { ...rest, deadline: Deadline.fromSignal(lookupSignal, ms) });
      return ask("read", conversationId, url, rest, call, signal) as Promise<
        InTurn<ReadResult> | PendingLookup
      >;
    },
    answer(conversationId, query, options) {
      const args = checked("answer", conversationId, query, options);
      if (!args.ok) return args.refusal as Promise<InTurn<AnswerResult>>;
      const { signal, ...rest } = args.options as SessionAnswerOptions;
      const call: Call = (lookupSignal, ms) =>
        websift.answer(query, { ...rest, signal: lookupSignal, timeoutMs: ms });
      return ask("answer", conversationId, query, rest, call, signal) as Promise<
        InTurn<AnswerResult> | PendingLookup
      >;
    },
    follow(conversationId, id, options) {
      checkArgument("follow", "conversationId", CONVERSATION_ID, conversationId);
      checkArgument("follow", "id", CONVERSATION_ID, id);
      const { signal } = checkArgument("follow", "options", TURN_OPTIONS, options);
      const held = ticketOf(conversationId, id);
      return held ? waitInTurn(held[0], held[1], signal) : undefined;
    },
    withdraw(conversationId, id) {
      checkArgument("withdraw", "conversationId", CONVERSATION_ID, conversationId);
      checkArgument("withdraw", "id", CONVERSATION_ID, id);
      const held = ticketOf(conversationId, id);
      if (!held || held[1].waiters.size > 0) return;
      const [lookup, ticket] = held;
      lookup.tickets.delete(conversationId);
      if (ticket.owed) mailbox.release(ticket.id);
      if (lookup.tickets.size === 0)
        land(lookup, failedLookup(lookup.kind, lookup.subject, withdrawn), "withdrawn");
    },
    pending(conversationId) {
      checkArgument("pending", "conversationId", CONVERSATION_ID, conversationId);
      const listed: InFlightLookup[] = [];
      for (const lookup of inFlight.values()) {
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
    },
    liveState(conversationId) {
      if (conversationId !== undefined)
        checkArgument("liveState", "conversationId", CONVERSATION_ID, conversationId);
      return memory.render(conversationId);
    },
    async drain(graceMs) {
      draining = true;
      let grace: unknown;
      if (inFlight.size > 0)
        await new Promise<void>((resolve) => {
          idle = resolve;
          grace = clock.setTimeout(resolve, graceMs);
        });
      clock.clearTimeout(grace);
      idle = undefined;
      for (const lookup of [...inFlight.values()])
        land(lookup, failedLookup(lookup.kind, lookup.subject, shuttingDown), "shutdown");
      await settle();
    },
    async close() {
      closed = true;
      for (const lookup of [...inFlight.values()])
        land(lookup, failedLookup(lookup.kind, lookup.subject, sessionClosed), "close");
      await settle();
      stopHearing();
      if (!options.mailbox) await mailbox.close();
    },
  };
}

function abortReason(ended: Exclude<Ended, "call">): Error {
  if (ended === "deadline") return new DeadlineExceeded();
  const failure = { close: sessionClosed, withdrawn, shutdown: shuttingDown }[ended];
  return new Error(failure.message);
}

function safeKeepAs(kind: LookupKind, subject: string, result: LookupResult): string {
  try {
    return keepAsOf(kind, subject, result);
  } catch {
    return `(you looked up ${kind === "read" ? "a page" : "something"}: error)`;
  }
}

function seconds(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a number of seconds, 0 or more`);
  return value;
}
