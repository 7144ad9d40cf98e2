import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type Clock, systemClock } from "../session/clock.js";
import type { Mail, Mailbox } from "../session/mailbox.js";
import { parseConversationId } from "./bodies.js";
import type { ConversationIds } from "./conversation-ids.js";
import { UNKNOWN_CONVERSATION } from "./conversations.js";
import { landedData } from "./render.js";

export interface EventsOptions {
  /** The session's mailbox: each stream is a view of its conversation's part of it. */
  mailbox: Mailbox;
  /** Only ids the service issued have a stream. */
  ids: ConversationIds;
  /** A comment line this often keeps proxies from closing an idle stream (default 15 s). */
  keepAliveMs?: number;
  /** Times the keep-alive comments (the session's kind of clock, so a test moves it by hand). */
  clock?: Clock;
  clientOf(request: FastifyRequest): string;
  /** Streams one client may hold open at once (default 16): each holds a socket. */
  maxStreamsPerClient?: number;
}

/** Ids one stream remembers having sent, so a replay after a gap repeats nothing (the mailbox keeps 100). */
const SENT_REMEMBERED = 256;

/**
 * GET /v1/conversations/:id/events: Server-Sent Events, one `landed` event per lookup of that conversation that
 * outlived its turn, its SSE id the lookup's id. A stream first sends what no stream took yet, or, with
 * `Last-Event-ID`, everything that landed after that event (within the mailbox's retention), then each new
 * landing from any instance of the fleet. Streams end when the client leaves or the server closes.
 */
export function registerEvents(app: FastifyInstance, options: EventsOptions): void {
  const open = new Set<ServerResponse>();
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const maxStreams = options.maxStreamsPerClient ?? 16;
  const perClient = new Map<string, number>();
  const streams = new Map<string, Set<Stream>>();
  const { mailbox } = options;
  const clock = options.clock ?? systemClock;

  const stopListening = mailbox.listen(
    (mail) => {
      for (const stream of streams.get(mail.landing.conversationId) ?? []) stream.hear(mail);
    },
    () => {
      for (const set of streams.values()) for (const stream of set) void stream.catchUp();
    },
  );

  app.get<{ Params: { id: string } }>("/v1/conversations/:id/events", (request, reply) => {
    const id = parseConversationId(request.params.id);
    if (!id.ok) return reply.code(400).send({ error: id.reason });
    if (!options.ids.valid(id.value)) return reply.code(404).send({ error: UNKNOWN_CONVERSATION });
    const conversationId = id.value;
    const client = options.clientOf(request);
    const held = perClient.get(client) ?? 0;
    if (held >= maxStreams) {
      reply.header("Retry-After", "5");
      return reply
        .code(429)
        .send({ error: `too many open event streams from this client (at most ${maxStreams})` });
    }
    perClient.set(client, held + 1);
    reply.hijack();
    const res = reply.raw;
    // Headers set on the reply before it was hijacked (the guard's CORS answer) go out with the stream.
    res.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      // nginx and similar buffer responses unless told not to; an event must not wait in a proxy.
      "x-accel-buffering": "no",
    });
    res.write(": connected\n\n");
    open.add(res);
    const lastEventId = request.headers["last-event-id"];
    const stream = new Stream(
      res,
      conversationId,
      mailbox,
      typeof lastEventId === "string" ? lastEventId : undefined,
    );
    let set = streams.get(conversationId);
    if (!set) {
      set = new Set();
      streams.set(conversationId, set);
    }
    set.add(stream);
    void stream.catchUp();
    let keepAlive = clock.setTimeout(function beat() {
      res.write(": keep-alive\n\n");
      keepAlive = clock.setTimeout(beat, keepAliveMs);
    }, keepAliveMs);
    res.once("close", () => {
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
      clock.clearTimeout(keepAlive);
      set.delete(stream);
      if (set.size === 0 && streams.get(conversationId) === set) streams.delete(conversationId);
      open.delete(res);
    });
  });

  // Open streams would hold the server's close() forever: end them first.
  app.addHook("preClose", async () => {
    stopListening();
    for (const res of open) res.end();
    open.clear();
  });
}

/** One open stream: replays from the mailbox, then follows it, sending each landing once. */
class Stream {
  private readonly sent = new Set<string>();
  /** Landings heard while a replay is being read, sent after it in order. */
  private held: Mail[] | undefined = [];
  private catchingUp: Promise<void> | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly conversationId: string,
    private readonly mailbox: Mailbox,
    private lastId: string | undefined,
  ) {}

  hear(mail: Mail): void {
    if (this.held) this.held.push(mail);
    else this.send(mail);
  }

  /** Sends what the mailbox has that this stream has not: on connect, and after the fleet channel was away. */
  catchUp(): Promise<void> {
    this.catchingUp ??= this.replay().finally(() => {
      this.catchingUp = undefined;
    });
    return this.catchingUp;
  }

  private async replay(): Promise<void> {
    this.held ??= [];
    try {
      const missed =
        this.lastId === undefined && this.sent.size === 0
          ? await this.mailbox.unhanded(this.conversationId)
          : await this.mailbox.after(this.conversationId, this.lastId);
      for (const mail of missed) this.send(mail);
    } finally {
      const held = this.held;
      this.held = undefined;
      for (const mail of held) this.send(mail);
    }
  }

  private send(mail: Mail): void {
    if (this.sent.has(mail.id) || this.res.writableEnded) return;
    this.sent.add(mail.id);
    if (this.sent.size > SENT_REMEMBERED) this.sent.delete(this.sent.values().next().value as string);
    this.lastId = mail.id;
    this.res.write(`event: landed\nid: ${mail.id}\ndata: ${JSON.stringify(landedData(mail.landing))}\n\n`);
    this.mailbox.markHanded(this.conversationId, mail.id).catch(() => {});
  }
}
