import { randomUUID } from "node:crypto";
import type { RequestTaskStore } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import { errorView } from "../ground/model-view.js";
import { createSession, type Session, type SessionWebsift } from "../session/session.js";
import { LookupProgress } from "./pending-progress.js";
import { PendingResults } from "./pending-results.js";
import { type SessionTool, stillRunning, toolResult } from "./pending-tools.js";
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
  private readonly results = new PendingResults();
  private readonly session: Session;
  private readonly progress = new LookupProgress();
  private conversation: string | undefined;
  /** Tasks waiting on each running lookup, by lookup id. */
  private readonly taskBindings = new Map<string, TaskBinding[]>();

  constructor(websift: SessionWebsift, options: ClientLookupsOptions) {
    this.results.listen((id, output) => this.deliverToTasks(id, output));
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
      if (asked.status !== "pending") return this.answered(asked.id, tool.render(args, asked));
      if (context.signal.aborted) {
        // Issue 6 wants a cancelled call to abort its requests; issue 7 wants a cancelled turn not to lose its
        // lookup. A cancelled MCP call gets no reply, so unless this client was given the id by an earlier call
        // it could never ask for the result: such a lookup is stopped (its sockets close). One whose id the
        // client holds runs on and stays retrievable with web_result, as does one a task of this client awaits.
        if (!this.results.running(asked.id) && !this.taskBindings.has(asked.id))
          this.session.withdraw(conversation, asked.id);
        return undefined;
      }
      this.results.report(asked.id, { tool, args, told: true });
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
      return this.answered(id, running.tool.render(running.args, asked));
    } finally {
      stop();
    }
  }

  /**
   * A task-augmented call: the lookup starts, the task is created at once, and the result is stored in the task
   * when the lookup lands (tasks/result then hands it over, and the client hears notifications/tasks/status).
   */
  async startTask(
    tool: SessionTool,
    args: Record<string, unknown>,
    task: Task,
    context: CallContext & { taskStore: RequestTaskStore },
  ): Promise<void> {
    const conversation = this.conversationOf(context.sessionId);
    // The task replies at once: its turn is over before it starts, so the lookup goes straight to pending.
    const asked = await tool.ask(this.session, conversation, args, { signal: AbortSignal.abort() });
    const binding = { taskId: task.taskId, store: context.taskStore };
    if (asked.status !== "pending") return storeInTask(binding, tool.render(args, asked));
    this.results.report(asked.id, { tool, args, told: false });
    const bound = this.taskBindings.get(asked.id) ?? [];
    this.taskBindings.set(asked.id, [...bound, binding]);
  }

  /** tasks/cancel: the task's lookup stops unless something else still wants it (the rule of a cancelled call). */
  cancelTask(taskId: string, sessionId: string | undefined): void {
    for (const [id, bound] of this.taskBindings) {
      if (!bound.some((b) => b.taskId === taskId)) continue;
      const rest = bound.filter((b) => b.taskId !== taskId);
      if (rest.length > 0) this.taskBindings.set(id, rest);
      else {
        this.taskBindings.delete(id);
        if (!this.results.running(id)) this.session.withdraw(this.conversationOf(sessionId), id);
      }
    }
  }

  close(): Promise<void> {
    return this.session.close();
  }

  /** A result that reached a call in its turn: the session delivers it nowhere else, so its tasks get it here. */
  private answered(id: string, output: ToolOutput): ToolOutput {
    this.deliverToTasks(id, output);
    this.results.settle(id);
    return output;
  }

  private deliverToTasks(id: string, output: ToolOutput): void {
    const bound = this.taskBindings.get(id);
    if (!bound) return;
    this.taskBindings.delete(id);
    for (const binding of bound) storeInTask(binding, output);
  }

  private listen(tool: SessionTool, args: Record<string, unknown>, context: CallContext): () => void {
    if (!context.progress) return () => {};
    return this.progress.listen(tool.kind, tool.subject(args), context.progress);
  }
}

interface TaskBinding {
  taskId: string;
  store: RequestTaskStore;
}

/** The request's task store also tells the client (notifications/tasks/status); a client gone meanwhile is fine. */
function storeInTask(binding: TaskBinding, output: ToolOutput): void {
  binding.store
    .storeTaskResult(binding.taskId, output.isError ? "failed" : "completed", toolResult(output))
    .catch(() => {});
}

function unknownId(id: string): ToolOutput {
  const shown = id.replace(/[^\w-]/g, "").slice(0, 40);
  return errorView(
    `web_result: no running or landed lookup "${shown}" for this client (unknown, already returned, or expired); call the original tool again.`,
  );
}
