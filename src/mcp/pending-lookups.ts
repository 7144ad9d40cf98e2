import { randomUUID } from "node:crypto";
import { createSession, type Session, type SessionWebsift } from "../session/session.js";
import { LookupProgress } from "./pending-progress.js";
import { PendingResults } from "./pending-results.js";
import { type SessionTool, stillRunning } from "./pending-tools.js";
import type { ToolOutput } from "./tools.js";

export interface ClientLookupsOptions {
  waitSeconds: number;
  deadlineSeconds: number;
  maxConcurrent: number;
  /** Caps one page read below the deadline. */
  fetchBudgetMs?: number;
}

/** What one tool call brings: the MCP session it came in on, its cancellation, and where progress lines go. */
export interface CallContext {
  sessionId?: string;
  signal: AbortSignal;
  progress?: (line: string) => void;
}

/**
 * One MCP client's lookups: its own session (so its ids and results are its own), the wait of each call, and
 * the results that land after a call has replied "still running", for web_result.
 */
export class ClientLookups {
  readonly results = new PendingResults();
  readonly session: Session;
  private readonly progress = new LookupProgress();
  private conversation: string | undefined;

  constructor(websift: SessionWebsift, options: ClientLookupsOptions) {
    this.session = createSession(this.progress.around(websift, options.fetchBudgetMs), {
      waitSeconds: options.waitSeconds,
      deadlineSeconds: options.deadlineSeconds,
      maxConcurrent: options.maxConcurrent,
      onLanded: (landing) => this.results.onLanded(landing),
    });
  }

  /** The client's conversation: named after its MCP session when the transport has one (HTTP), else its own. */
  conversationOf(sessionId: string | undefined): string {
    this.conversation ??= `mcp:${sessionId ?? randomUUID()}`;
    return this.conversation;
  }

  /**
   * Runs a tool call as a session lookup. Undefined when the call was cancelled: the SDK sends no reply to a
   * cancelled request, so there is nothing to render.
   */
  async call(
    tool: SessionTool,
    args: Record<string, unknown>,
    context: CallContext,
  ): Promise<ToolOutput | undefined> {
    const conversation = this.conversationOf(context.sessionId);
    const stop = this.listen(tool, args, context);
    try {
      const asked = await tool.ask(this.session, conversation, args, { signal: context.signal });
      if (asked.status !== "pending") {
        this.results.settle(asked.id);
        return tool.render(args, asked);
      }
      if (context.signal.aborted) {
        // Issue 6 wants a cancelled call to abort its requests; issue 7 wants a cancelled turn not to lose its
        // lookup. A cancelled MCP call gets no reply, so unless this client was given the id by an earlier call
        // it could never ask for the result: such a lookup is stopped (its sockets close). One whose id the
        // client holds runs on and stays retrievable with web_result.
        if (!this.results.running(asked.id)) this.session.withdraw(conversation, asked.id);
        return undefined;
      }
      this.results.report(asked.id, { tool, args });
      return stillRunning(tool.name, asked.id);
    } finally {
      stop();
    }
  }

  /** web_result: a landed result once; else a wait on the running lookup; else an error the model can act on. */
  async result(id: string, context: CallContext): Promise<ToolOutput> {
    const landed = this.results.take(id);
    if (landed) return landed;
    const running = this.results.running(id);
    const followed = running && this.session.follow(this.conversationOf(context.sessionId), id, context);
    if (!running || !followed) return unknownId(id);
    const stop = this.listen(running.tool, running.args, context);
    try {
      const asked = await followed;
      if (asked.status === "pending") return stillRunning(running.tool.name, id);
      this.results.settle(id);
      return running.tool.render(running.args, asked);
    } finally {
      stop();
    }
  }

  close(): Promise<void> {
    return this.session.close();
  }

  private listen(tool: SessionTool, args: Record<string, unknown>, context: CallContext): () => void {
    if (!context.progress) return () => {};
    return this.progress.listen(tool.kind, tool.subject(args), context.progress);
  }
}

function unknownId(id: string): ToolOutput {
  const shown = id.replace(/[^\w-]/g, "").slice(0, 40);
  return {
    text: `web_result: no running or landed lookup "${shown}" for this client (unknown, already returned, or expired); call the original tool again.`,
    structured: { status: "error", code: "unknown_id", id: shown },
    isError: true,
  };
}
