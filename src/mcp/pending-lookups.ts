import { randomUUID } from "node:crypto";
import type { RequestTaskStore } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Result, Task } from "@modelcontextprotocol/sdk/types.js";
import { errorView } from "../ground/model-view.js";
import type { Mail } from "../session/mailbox.js";
import type { Session } from "../session/session.js";
import type { ToolOutput } from "../surface/tools.js";
import type { LookupProgress } from "./pending-progress.js";
import type { LookupTaskStore } from "./pending-tasks.js";
import { landingView, type SessionTool, stillRunning, toolResult } from "./pending-tools.js";

/** What one MCP client's lookups run on: its session (whose mailbox holds what lands), progress, and tasks. */
export interface ClientParts {
  session: Session;
  /** The progress lines of the session's lookups (the session calls the instance `progress.around` made). */
  progress: LookupProgress;
  tasks: LookupTaskStore;
  /** The client's conversation, when the server was told it (else named after its MCP session). */
  conversation?: string;
}

/** What one tool call brings: the MCP session it came in on, its cancellation, and where progress lines go. */
export interface CallContext {
  sessionId?: string;
  signal: AbortSignal;
  progress?: (line: string) => void;
}

/** A lookup the client was given the id of in a reply, while it runs: enough to wait on it and render it. */
interface Told {
  tool: SessionTool;
  subject: string;
}

interface TaskBinding {
  taskId: string;
  store: RequestTaskStore;
}

/**
 * One MCP client's lookups: its own conversation of the session (so its ids and results are its own) and the
 * wait of each call. What lands after a call replied "still running" lives in the session's mailbox only:
 * web_result and the client's tasks are views of it, and whichever asks first is handed the landing, once.
 */
export class ClientLookups {
  private readonly session: Session;
  private readonly progress: LookupProgress;
  private readonly tasks: LookupTaskStore;
  private conversation: string | undefined;
  /** Ids given to the client while their lookups run (not results: those are the mailbox's). */
  private readonly told = new Map<string, Told>();
  /** Tasks waiting on each running lookup, by lookup id. */
  private readonly taskBindings = new Map<string, TaskBinding[]>();
  private readonly stopHearing: () => void;

  constructor(parts: ClientParts) {
    this.session = parts.session;
    this.progress = parts.progress;
    this.tasks = parts.tasks;
    this.conversation = parts.conversation;
    this.tasks.onCancelled((taskId) => this.cancelTask(taskId, undefined));
    this.stopHearing = this.session.mailbox.listen((mail) => this.landed(mail));
  }

  /**
   * The client's conversation: the one the server was given, else named after its MCP session when the
   * transport has one (HTTP), else its own.
   */
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
    const subject = tool.subject(args);
    const stop = this.listen(tool, subject, context);
    try {
      const asked = await tool.ask(this.session, conversation, args, { signal: context.signal });
      if (asked.status !== "pending") return this.answered(asked.id, tool, tool.render(subject, asked));
      if (context.signal.aborted) {
        // A cancelled call should stop its requests, and a cancelled turn should not lose its lookup. A
        // cancelled MCP call gets no reply, so unless this client was given the id by an earlier call it could
        // never ask for the result: such a lookup is stopped (its sockets close). One whose id the client holds
        // runs on and stays retrievable with web_result, as does one a task of this client awaits.
        if (!this.told.has(asked.id) && !this.taskBindings.has(asked.id))
          this.session.withdraw(conversation, asked.id);
        return undefined;
      }
      this.told.set(asked.id, { tool, subject });
      return stillRunning(tool.name, asked.id);
    } finally {
      stop();
    }
  }

  /** web_result: a landing of the mailbox once; else a wait on the running lookup; else an error to act on. */
  async result(id: string, context: CallContext): Promise<ToolOutput> {
    const conversation = this.conversationOf(context.sessionId);
    const mail = await this.session.mailbox.take(conversation, id);
    if (mail) return landingView(mail.landing);
    const told = this.told.get(id);
    const followed = told && this.session.follow(conversation, id, context);
    if (!told || !followed) {
      // It may have landed between the two looks: the session no longer runs it, the mailbox has it now.
      const late = told && (await this.session.mailbox.take(conversation, id));
      return late ? landingView(late.landing) : unknownId(id);
    }
    const stop = this.listen(told.tool, told.subject, context);
    try {
      const asked = await followed;
      if (asked.status === "pending") return stillRunning(told.tool.name, id);
      return this.answered(id, told.tool, told.tool.render(told.subject, asked));
    } finally {
      stop();
    }
  }

  /**
   * A task-augmented call: the lookup starts and the task is created at once. When the lookup lands, the task
   * ends (the client hears notifications/tasks/status) and tasks/result takes the landing from the mailbox.
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
    if (asked.status !== "pending") return storeInTask(binding, tool.render(tool.subject(args), asked));
    this.tasks.bind(task.taskId, this.taskView(conversation, asked.id, tool.name));
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
        if (!this.told.has(id)) this.session.withdraw(this.conversationOf(sessionId), id);
      }
    }
  }

  close(): Promise<void> {
    this.stopHearing();
    return this.session.close();
  }

  /** A landing of this client's conversation: its tasks end; web_result or a task takes it when asked. */
  private landed(mail: Mail): void {
    if (mail.landing.conversationId !== this.conversation) return;
    this.told.delete(mail.id);
    const bound = this.taskBindings.get(mail.id);
    if (!bound) return;
    this.taskBindings.delete(mail.id);
    const status = landingView(mail.landing).isError ? "failed" : "completed";
    for (const binding of bound) binding.store.updateTaskStatus(binding.taskId, status).catch(() => {});
  }

  /** One task's result: the landing, taken from the mailbox the first time (read again by the same task). */
  private taskView(conversation: string, id: string, toolName: string): () => Promise<Result> {
    let took = false;
    return async () => {
      const mailbox = this.session.mailbox;
      const mail = took ? await mailbox.find(conversation, id) : await mailbox.take(conversation, id);
      if (!mail) return toolResult(errorView(handedElsewhere(toolName, took)));
      took = true;
      return toolResult(landingView(mail.landing));
    };
  }

  /**
   * A result that reached a call in its turn: the session posts nothing for it, and the conversation has it now,
   * so a task of this client awaiting the same lookup ends saying where it went instead of handing it again.
   */
  private answered(id: string, tool: SessionTool, output: ToolOutput): ToolOutput {
    this.told.delete(id);
    const bound = this.taskBindings.get(id);
    this.taskBindings.delete(id);
    const note = errorView(`${tool.name}: ${ANSWERED_IN_A_CALL}`);
    for (const binding of bound ?? []) storeInTask(binding, note, "completed");
    return output;
  }

  private listen(tool: SessionTool, subject: string, context: CallContext): () => void {
    if (!context.progress) return () => {};
    return this.progress.listen(tool.kind, subject, context.progress);
  }
}

/** The request's task store also tells the client (notifications/tasks/status); a client gone meanwhile is fine. */
function storeInTask(
  binding: TaskBinding,
  output: ToolOutput,
  status: "completed" | "failed" = output.isError ? "failed" : "completed",
): void {
  binding.store.storeTaskResult(binding.taskId, status, toolResult(output)).catch(() => {});
}

const ANSWERED_IN_A_CALL =
  "this task's result was already returned to this client by a call that asked the same; it is handed over once.";

function handedElsewhere(toolName: string, took: boolean): string {
  return took
    ? `${toolName}: this task's result is no longer kept (expired); call ${toolName} again.`
    : `${toolName}: this task's result was already returned to this client by web_result; it is handed over once.`;
}

function unknownId(id: string): ToolOutput {
  const shown = id.replace(/[^\w-]/g, "").slice(0, 40);
  return errorView(
    `web_result: no running or landed lookup "${shown}" for this client (unknown, already returned, or expired); call the original tool again.`,
  );
}
