import { randomUUID } from "node:crypto";
import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";

interface Stored {
  task: Task;
  /** A result the task was given at once: a plain call's reply, or a lookup answered within a turn. */
  result?: Result;
  /** A lookup's task reads its result from the session's mailbox when asked: the store keeps no copy. */
  view?: () => Promise<Result>;
  /** Asked for by the client (a task-augmented tools/call), as opposed to a plain call the SDK routes here. */
  augmented: boolean;
  expiresAt: number;
}

const POLL_INTERVAL_MS = 1000;

/** How long tasks live and how many one client keeps: the session mailbox's retention, so both end together. */
export interface TaskRetention {
  keepMs: number;
  perConversation: number;
}

/**
 * One client's MCP tasks (spec 2025-11-25, @modelcontextprotocol/sdk's experimental tasks). Each MCP server has
 * its own store, so one client's tasks are never visible to another. A task whose lookup outlived its turn is a
 * view of the session's mailbox: its result is the landing, taken from the mailbox when tasks/result asks, so it
 * is handed once whether the task or web_result asks first. Expiry is checked on access: no timers, nothing
 * keeps the process alive.
 *
 * The SDK routes every call of a tool registered as task-capable through createTask, including plain calls from
 * clients without tasks (it then polls the store for them). `augmented` tells the two apart, so a plain call
 * can run as it always has and be stored already finished.
 */
export class LookupTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Stored>();
  private cancelled: (taskId: string) => void = () => {};

  constructor(
    private readonly retention: TaskRetention,
    private readonly now: () => number = Date.now,
  ) {}

  /** Told when the client cancels a task (tasks/cancel). */
  onCancelled(listener: (taskId: string) => void): void {
    this.cancelled = listener;
  }

  async createTask(params: CreateTaskOptions, _id: RequestId, request: Request): Promise<Task> {
    this.prune();
    const ttl = Math.min(params.ttl ?? this.retention.keepMs, this.retention.keepMs);
    const at = new Date(this.now()).toISOString();
    const task: Task = {
      taskId: randomUUID(),
      status: "working",
      ttl,
      createdAt: at,
      lastUpdatedAt: at,
      pollInterval: POLL_INTERVAL_MS,
    };
    const augmented = Boolean((request.params as { task?: unknown } | undefined)?.task);
    this.tasks.set(task.taskId, { task, augmented, expiresAt: this.now() + ttl });
    return { ...task };
  }

  isAugmented(taskId: string): boolean {
    return this.tasks.get(taskId)?.augmented ?? false;
  }

  /** The task's result is read through `view` once it ends (its lookup landed in the mailbox). */
  bind(taskId: string, view: () => Promise<Result>): void {
    const stored = this.find(taskId);
    if (stored) stored.view = view;
  }

  async getTask(taskId: string): Promise<Task | null> {
    const stored = this.find(taskId);
    return stored ? { ...stored.task } : null;
  }

  /** A result stored once; one arriving for a task already finished (cancelled meanwhile) is dropped. */
  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result): Promise<void> {
    const stored = this.find(taskId);
    if (!stored || terminal(stored.task)) return;
    stored.result = result;
    stored.view = undefined;
    this.update(stored, status);
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const stored = this.find(taskId);
    if (stored?.result) {
      // A plain call's task exists only to carry its result back through the SDK: it is read once.
      if (!stored.augmented) this.tasks.delete(taskId);
      return stored.result;
    }
    if (stored?.view && terminal(stored.task)) return stored.view();
    throw new Error(`task ${taskId} has no result`);
  }

  async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string): Promise<void> {
    const stored = this.find(taskId);
    if (!stored) throw new Error(`task ${taskId} not found`);
    if (terminal(stored.task)) throw new Error(`task ${taskId} has already ended (${stored.task.status})`);
    this.update(stored, status, statusMessage);
    if (status === "cancelled") {
      stored.view = undefined;
      this.cancelled(taskId);
    }
  }

  async listTasks(): Promise<{ tasks: Task[] }> {
    this.prune();
    const tasks = [...this.tasks.values()].filter((s) => s.augmented).map((s) => ({ ...s.task }));
    return { tasks };
  }

  private update(stored: Stored, status: Task["status"], statusMessage?: string): void {
    stored.task.status = status;
    if (statusMessage) stored.task.statusMessage = statusMessage;
    stored.task.lastUpdatedAt = new Date(this.now()).toISOString();
  }

  private find(taskId: string): Stored | undefined {
    this.prune();
    return this.tasks.get(taskId);
  }

  private prune(): void {
    const now = this.now();
    for (const [id, stored] of this.tasks)
      if (stored.expiresAt <= now || this.tasks.size > this.retention.perConversation) this.tasks.delete(id);
  }
}

function terminal(task: Task): boolean {
  return task.status === "completed" || task.status === "failed" || task.status === "cancelled";
}
