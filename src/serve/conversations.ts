import type { FastifyInstance } from "fastify";
import { parseConversationId } from "./bodies.js";
import type { ConversationIds } from "./conversation-ids.js";

const CALLS = new Set(["/v1/search", "/v1/read", "/v1/answer"]);

export const UNKNOWN_CONVERSATION =
  "conversation_id: no such conversation on this service; start one with POST /v1/conversations";

/**
 * POST /v1/conversations issues a conversation id; a call or an event stream naming an id the service did not
 * issue gets 404 and nothing else, so no one reads or feeds a conversation whose id they were not given.
 */
export function registerConversations(app: FastifyInstance, ids: ConversationIds): void {
  app.post("/v1/conversations", async (_request, reply) =>
    reply.code(201).send({ conversation_id: ids.issue() }),
  );

  app.addHook("preHandler", async (request, reply) => {
    if (request.method !== "POST" || !CALLS.has(request.routeOptions.url ?? "")) return;
    const named = (request.body as { conversation_id?: unknown } | null)?.conversation_id;
    // A malformed id is the body parser's to refuse (400, naming the field).
    if (named === undefined || !parseConversationId(named).ok) return;
    if (!ids.valid(named as string)) return reply.code(404).send({ error: UNKNOWN_CONVERSATION });
  });
}
