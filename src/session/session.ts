import { CONVERSATION_ID, checkArgument, SESSION_OPTIONS, TURN_OPTIONS } from "../arguments.js";
import { warnRenamedOption } from "../core/deprecation.js";
import type { AnswerResult } from "../ground/answer.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import { MemoryMailboxStore } from "../store/mailbox-store.js";
import { type Clock, systemClock } from "./clock.js";
import type { InFlightLookup, InTurn, Landing, LookupResult, PendingLookup } from "./landing.js";
import {
  answerCall,
  type LookupAnswerOptions,
  type LookupReadOptions,
  type LookupSearchOptions,
  readCall,
  type SessionWebsift,
  searchCall,
} from "./lookup-calls.js";
import { Lookups } from "./lookups.js";
import { Mailbox } from "./mailbox.js";
import { checkAsk, milliseconds, seconds } from "./session-arguments.js";
import { createWebMemory, rememberLookup } from "./web-memory.js";

export type { InFlightLookup, InTurn, Landing, LookupResult, PendingLookup } from "./landing.js";
export { PENDING_MESSAGE } from "./landing.js";
export type { SessionWebsift } from "./lookup-calls.js";

export interface TurnOptions {
  /** Ends the caller's wait (its turn), never the lookup: a lookup whose turn was cancelled still lands. */
  signal?: AbortSignal;
}
// The session owns each lookup's budget and signal; per-turn callbacks cannot be shared between callers.
export type SessionSearchOptions = LookupSearchOptions & TurnOptions;
export type SessionReadOptions = LookupReadOptions & TurnOptions;
export type SessionAnswerOptions = LookupAnswerOptions & TurnOptions;

export interface SessionOptions {
  /**
   * How long a turn waits for its lookup before going on with "pending", in ms (default 3 s). A function is
   * asked on every turn: the operator's setting may change while the session lives.
   */
  waitMs?: number | (() => number | undefined);
  /**
   * A lookup's whole budget in ms, counted from its ask, queueing included (default 20 s): past it, it lands as
   * a timeout failure.
   */
  lookupTimeoutMs?: number;
  /** @deprecated `waitMs` in seconds; works, with one warning per process, until the next minor version. */
  waitSeconds?: number | (() => number | undefined);
  /** @deprecated `lookupTimeoutMs` in seconds; works, with one warning per process, until the next minor version. */
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

/**
 * Lookups that never hold a turn: a caller waits at most `waitMs`, then goes on with "pending" while the
 * lookup runs on and lands later through `onLanded`, to the conversation that asked. This composes the parts:
 * the background lookups (`lookups.ts`), the mailbox they land in, and the conversations' web memory.
 */
export function createSession(websift: SessionWebsift, given?: SessionOptions): Session {
  const options = checkArgument("createSession", "options", SESSION_OPTIONS, given);
  const clock = options.clock ?? systemClock;
  const { waitMs, lookupTimeoutMs } = sessionTimes(options);
  if (typeof (options.waitMs ?? options.waitSeconds) !== "function") waitMs();
  const maxConcurrent = options.maxConcurrent ?? 3;
  // The session's own mailbox keeps its time, so its retention follows the clock a test moves.
  const mailbox =
    options.mailbox ?? new Mailbox({ store: new MemoryMailboxStore({}, () => clock.now()), clock });
  const memory = createWebMemory(clock);
  const lookups = new Lookups({
    clock,
    waitMs,
    lookupTimeoutMs,
    maxConcurrent,
    mailbox,
    onResult: (conversationId, kind, subject, result) =>
      rememberLookup(memory, conversationId, kind, subject, result),
  });
  const onLanded = options.onLanded;
  const stopHearing = onLanded ? mailbox.onPosted((landing) => onLanded(landing)) : () => {};

  return {
    mailbox,
    search(conversationId, query, options) {
      const args = checkAsk("search", conversationId, query, options);
      if (!args.ok) return args.refusal as Promise<InTurn<SearchResponse>>;
      const { signal, ...rest } = args.options as SessionSearchOptions;
      return lookups.ask(
        "search",
        conversationId,
        query,
        rest,
        searchCall(websift, query, rest),
        signal,
      ) as Promise<InTurn<SearchResponse> | PendingLookup>;
    },
    read(conversationId, url, options) {
      const args = checkAsk("read", conversationId, url, options);
      if (!args.ok) return args.refusal as Promise<InTurn<ReadResult>>;
      const { signal, ...rest } = args.options as SessionReadOptions;
      return lookups.ask("read", conversationId, url, rest, readCall(websift, url, rest), signal) as Promise<
        InTurn<ReadResult> | PendingLookup
      >;
    },
    answer(conversationId, query, options) {
      const args = checkAsk("answer", conversationId, query, options);
      if (!args.ok) return args.refusal as Promise<InTurn<AnswerResult>>;
      const { signal, ...rest } = args.options as SessionAnswerOptions;
      return lookups.ask(
        "answer",
        conversationId,
        query,
        rest,
        answerCall(websift, query, rest),
        signal,
      ) as Promise<InTurn<AnswerResult> | PendingLookup>;
    },
    follow(conversationId, id, options) {
      checkArgument("follow", "conversationId", CONVERSATION_ID, conversationId);
      checkArgument("follow", "id", CONVERSATION_ID, id);
      const { signal } = checkArgument("follow", "options", TURN_OPTIONS, options);
      return lookups.follow(conversationId, id, signal);
    },
    withdraw(conversationId, id) {
      checkArgument("withdraw", "conversationId", CONVERSATION_ID, conversationId);
      checkArgument("withdraw", "id", CONVERSATION_ID, id);
      lookups.withdraw(conversationId, id);
    },
    pending(conversationId) {
      checkArgument("pending", "conversationId", CONVERSATION_ID, conversationId);
      return lookups.pending(conversationId);
    },
    liveState(conversationId) {
      if (conversationId !== undefined)
        checkArgument("liveState", "conversationId", CONVERSATION_ID, conversationId);
      return memory.render(conversationId);
    },
    drain: (graceMs) => lookups.drain(graceMs),
    async close() {
      await lookups.close();
      stopHearing();
      if (!options.mailbox) await mailbox.close();
    },
  };
}

/** The session's times in ms; its deprecated spellings in seconds are read (and said once) here. */
function sessionTimes(options: SessionOptions) {
  const { waitSeconds, deadlineSeconds } = options;
  if (waitSeconds !== undefined) warnRenamedOption("SessionOptions.waitSeconds", "waitMs");
  if (deadlineSeconds !== undefined) warnRenamedOption("SessionOptions.deadlineSeconds", "lookupTimeoutMs");
  const asked = (given: number | (() => number | undefined) | undefined) =>
    typeof given === "function" ? given() : given;
  const fromSeconds = (given: number | undefined, name: string) =>
    given === undefined ? undefined : seconds(given, name) * 1000;
  return {
    waitMs: () =>
      milliseconds(asked(options.waitMs) ?? fromSeconds(asked(waitSeconds), "waitSeconds") ?? 3000, "waitMs"),
    lookupTimeoutMs: milliseconds(
      options.lookupTimeoutMs ?? fromSeconds(deadlineSeconds, "deadlineSeconds") ?? 20_000,
      "lookupTimeoutMs",
    ),
  };
}
