import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { oneLine } from "../core/one-line.js";
import { modelSafe } from "../ground/fence.js";
import { withoutQuery } from "../net/client.js";
import type { PendingLookup } from "../session/session.js";
import { parseAnswer, parseRead, parseSearch } from "./bodies.js";
import type { ClientLimits } from "./client-limits.js";
import type { ActivityEntry } from "./context.js";
import { health } from "./health.js";
import { answerReply, type Reply, readReply, searchReply } from "./render.js";
import type { ServeRuntime } from "./serve-context.js";

export interface ApiDeps {
  limits: ClientLimits;
  /** The caller's identity for caps and the activity list. */
  clientOf(request: FastifyRequest): string;
  capText: string;
}

/**
 * POST /v1/search, /v1/read, /v1/answer and GET /v1/health. Every honest outcome (blocked, rate limited,
 * timeout, disabled) is a 200 whose `status` says so; HTTP errors are kept for the request itself being wrong.
 * Each answers the model view (render.ts); `?raw=1` asks for the library's shape beside the same text.
 */
export function registerApi(app: FastifyInstance, ctx: ServeRuntime, deps: ApiDeps): void {
  app.get("/v1/health", async (_request, reply) => {
    const body = await health(ctx);
    return body.ok ? body : reply.code(503).send(body);
  });

  app.post("/v1/search", async (request, reply) => {
    const parsed = parseSearch(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.reason });
    const { query, options, conversationId } = parsed.value;
    return limited(request, reply, "search", oneLine(query, 300, modelSafe), async (signal) => {
      if (conversationId) {
        const r = await ctx.session().search(conversationId, query, { ...options, signal });
        return r.status === "pending" ? pending(r) : searchReply(r, rawOf(request));
      }
      return searchReply(await ctx.websift().search(query, { ...options, signal }), rawOf(request));
    });
  });

  app.post("/v1/read", async (request, reply) => {
    const parsed = parseRead(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.reason });
    const { url, options, conversationId } = parsed.value;
    return limited(request, reply, "read", oneLine(withoutQuery(url), 300, modelSafe), async (signal) => {
      if (conversationId) {
        const r = await ctx.session().read(conversationId, url, { ...options, signal });
        return r.status === "pending" ? pending(r) : readReply(url, r, rawOf(request));
      }
      return readReply(url, await ctx.websift().read(url, { ...options, signal }), rawOf(request));
    });
  });

  app.post("/v1/answer", async (request, reply) => {
    const parsed = parseAnswer(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.reason });
    const { query, options, conversationId } = parsed.value;
    return limited(request, reply, "answer", oneLine(query, 300, modelSafe), async (signal) => {
      if (conversationId) {
        const r = await ctx.session().answer(conversationId, query, { ...options, signal });
        return r.status === "pending" ? pending(r) : answerReply(r, rawOf(request));
      }
      return answerReply(await ctx.websift().answer(query, { ...options, signal }), rawOf(request));
    });
  });

  async function limited(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: ActivityEntry["kind"],
    subject: string,
    call: (signal: AbortSignal) => Promise<Reply>,
  ): Promise<unknown> {
    const client = deps.clientOf(request);
    // A client that hangs up ends its call (or, in a conversation, only its wait: the lookup still lands).
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once("close", onClose);
    const release = await deps.limits.acquire(client, gone.signal);
    if (!release) {
      reply.raw.off("close", onClose);
      reply.header("Retry-After", "1");
      return reply.code(429).send({ error: `too many calls in flight from this client (${deps.capText})` });
    }
    const started = performance.now();
    let status = "error";
    try {
      const body = await call(gone.signal);
      status = body.status;
      return body;
    } finally {
      release();
      reply.raw.off("close", onClose);
      ctx.record({
        at: Date.now(),
        kind,
        subject,
        status,
        ms: Math.round(performance.now() - started),
        client,
      });
    }
  }
}

const rawOf = (request: FastifyRequest) => {
  const raw = (request.query as { raw?: string } | undefined)?.raw;
  return raw === "1" || raw === "true";
};

function pending(p: PendingLookup): Reply {
  return { text: p.message, ...p };
}
