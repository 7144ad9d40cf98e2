import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { parseConversationId } from "./bodies.js";
import type { ConversationIds } from "./conversation-ids.js";
import { UNKNOWN_CONVERSATION } from "./conversations.js";
import type { LandedEvent, LandingHub } from "./landings.js";

export interface EventsOptions {
  hub: LandingHub;
  /** Only ids the service issued have a stream. */
  ids: ConversationIds;
  /** A comment line this often keeps proxies from closing an idle stream (default 15 s). */
  keepAliveMs?: number;
  clientOf(request: FastifyRequest): string;
  /** Streams one client may hold open at once (default 16): each holds a socket. */
  maxStreamsPerClient?: number;
}

/**
 * GET /v1/conversations/:id/events: Server-Sent Events, one `landed` event per lookup of that conversation that
 * outlived its turn, each delivered once per stream. Streams end when the client leaves or the server closes.
 */
export function registerEvents(app: FastifyInstance, options: EventsOptions): void {
  const open = new Set<ServerResponse>();
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const maxStreams = options.maxStreamsPerClient ?? 16;
  const perClient = new Map<string, number>();

  app.get<{ Params: { id: string } }>("/v1/conversations/:id/events", (request, reply) => {
    const id = parseConversationId(request.params.id);
    if (!id.ok) return reply.code(400).send({ error: id.reason });
    if (!options.ids.valid(id.value)) return reply.code(404).send({ error: UNKNOWN_CONVERSATION });
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
    const send = (event: LandedEvent) => {
      res.write(`event: landed\nid: ${event.id}\ndata: ${JSON.stringify(event.data)}\n\n`);
    };
    const unsubscribe = options.hub.subscribe(id.value, send);
    const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), keepAliveMs);
    res.once("close", () => {
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
      clearInterval(keepAlive);
      unsubscribe();
      open.delete(res);
    });
  });

  // Open streams would hold the server's close() forever: end them first.
  app.addHook("preClose", async () => {
    for (const res of open) res.end();
    open.clear();
  });
}
