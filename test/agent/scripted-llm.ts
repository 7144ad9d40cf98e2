/**
 * A scripted OpenAI-compatible server on the simulated web (llm.example.com): each chat request is answered by
 * the test's script, through the production net client. Replies are plain text (wrapped as a completion) or a
 * raw SimReply for the failure cases.
 */
import type { SimReply, SimRequest, SimWeb } from "../simweb/index.js";

export const LLM_HOST = "llm.example.com";
export const LLM_ENV = { WEBSIFT_LLM_BASE_URL: `https://${LLM_HOST}/v1`, WEBSIFT_LLM_MODEL: "scripted" };

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
}
export type Script = (body: ChatRequestBody, req: SimRequest) => string | SimReply;

export function completion(text: string): SimReply {
  return {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: "c1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: text } }],
    }),
  };
}

/** Routes the chat endpoint to `script`; returns the bodies it received, in order. */
export function scriptLlm(web: SimWeb, script: Script): ChatRequestBody[] {
  const seen: ChatRequestBody[] = [];
  web.route(LLM_HOST, "/v1/chat/completions", (req) => {
    const body = JSON.parse(req.body) as ChatRequestBody;
    seen.push(body);
    const reply = script(body, req);
    return typeof reply === "string" ? completion(reply) : reply;
  });
  return seen;
}

/** The text of the last message of a chat request (what the router asked about). */
export const lastContent = (body: ChatRequestBody) => body.messages.at(-1)?.content ?? "";
export const systemContent = (body: ChatRequestBody) => body.messages[0]?.content ?? "";
