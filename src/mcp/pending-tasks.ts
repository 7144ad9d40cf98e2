import { randomUUID } from "node:crypto";
import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";

interface Stored {
  task: Task;
  result?: Result;
  /** Asked for by the client (a task-augmented tools/call), as opposed to a plain call the SDK routes here. */
  augmented: boolean;
  expiresAt: number;
}

/** Longest a task and its result are kept (the client's ttl may ask for less): as long as web_result keeps one. */
export const TASK_KEEP_MS = 15 * 60_000;
const POLL_INTERVAL_MS = 1000;
/** A client that creates tasks and never reads them holds at most this many. */
const MAX_TASKS = 50;

/**
 * One client's MCP tasks (spec 2025-11-25, @modelcontextprotocol/sdk's experimental tasks). Each MCP server has
 * its own store, so one client's tasks are never visible to another. Expiry is checked on access: no timers,
 * nothing keeps the process alive.
 *
 * The SDK routes every call of a tool registered as task-capable through createTask, including plain calls from
 * clients without tasks (it then polls the store for them). `augmented` tells the two apart, so a plain call
 * can run as it always has and be stored already finished.
 */
export class LookupTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Stored>();

  constructor(
    /** Told when the client cancels a task (tasks/cancel). */
    private readonly onCancelled: (taskId: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  async createTask(params: CreateTaskOptions, _id: RequestId, request: Request): Promise<Task> {
    this.prune();
    const ttl = Math.min(params.ttl ?? TASK_KEEP_MS, TASK_KEEP_MS);
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

  async getTask(taskId: string): Promise<Task | null> {
    const stored = this.find(taskId);
    return stored ? { ...stored.task } : null;
  }

  /** A result stored once; one arriving for a task already finished (cancelled meanwhile) is dropped. */
  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result): Promise<void> {
    const stored = this.find(taskId);
    if (!stored || terminal(stored.task)) return;
    stored.result = result;
    this.update(stored, status);
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const stored = this.find(taskId);
    if (!stored?.result) throw new Error(`task ${taskId} has no result`);
    // A plain call's task exists only to carry its result back through the SDK: it is read once.
    if (!stored.augmented) this.tasks.delete(taskId);
    return stored.result;
  }

  async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string): Promise<void> {
    const stored = this.find(taskId);
    if (!stored) throw new Error(`task ${taskId} not found`);
    if (terminal(stored.task)) throw new Error(`task ${taskId} has already ended (${stored.task.status})`);
    this.update(stored, status, statusMessage);
    if (status === "cancelled") this.onCancelled(taskId);
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
      if (stored.expiresAt <= now || this.tasks.size > MAX_TASKS) this.tasks.delete(id);
  }
}

function terminal(task: Task): boolean {
  return task.status === "completed" || task.status === "failed" || task.status === "cancelled";
}
