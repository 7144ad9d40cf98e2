import type { Landing, LookupResult } from "../session/session.js";
import type { SessionTool } from "./pending-tools.js";
import type { ToolOutput } from "./tools.js";

/** A lookup one client was told is still running: enough to render its result like the tool that asked. */
export interface Reported {
  tool: SessionTool;
  args: Record<string, unknown>;
  /** The client was given the id in a reply (a task's lookup id never reaches it): web_result may ask for it. */
  told: boolean;
}

interface Kept {
  output: ToolOutput;
  landedAt: number;
}

/**
 * One client's lookups that outlived their call: the ids it was given, and the results that landed for them
 * until web_result takes each (once). Per client by construction (each MCP session has its own), so an id is
 * never visible to another client.
 */
export class PendingResults {
  private readonly reported = new Map<string, Reported>();
  private readonly landed = new Map<string, Kept>();
  private readonly listeners = new Set<(id: string, output: ToolOutput) => void>();

  constructor(
    /** A landed result nobody fetched is dropped after this long, so an abandoned client holds no pages forever. */
    private readonly keepMs = 15 * 60_000,
    /** And at most this many are kept, oldest dropped first. */
    private readonly keepAtMost = 50,
    private readonly now: () => number = Date.now,
  ) {}

  report(id: string, reported: Reported): void {
    const known = this.reported.get(id);
    this.reported.set(id, { ...reported, told: reported.told || (known?.told ?? false) });
  }

  /** The lookup the client was told it may ask for under `id`, while it runs. */
  running(id: string): Reported | undefined {
    const reported = this.reported.get(id);
    return reported?.told ? reported : undefined;
  }

  /** Hands a landed result over once; undefined when none landed (still running, taken, expired or unknown). */
  take(id: string): ToolOutput | undefined {
    this.prune();
    const kept = this.landed.get(id);
    if (!kept) return undefined;
    this.landed.delete(id);
    return kept.output;
  }

  /** The result reached the client within a call after all: nothing is kept for it. */
  settle(id: string): void {
    this.reported.delete(id);
  }

  /** Renders `result` as the tool that asked would have; undefined for an id this client was never given. */
  render(id: string, result: LookupResult, keepAs: string): ToolOutput | undefined {
    const reported = this.reported.get(id);
    if (!reported) return undefined;
    return reported.tool.render(reported.args, { ...result, id, keepAs } as unknown as LookupResult);
  }

  /** The session's onLanded for this client's conversation. */
  onLanded(landing: Landing): void {
    const output = this.render(landing.id, landing.result, landing.keepAs);
    if (!output) return;
    const told = this.reported.get(landing.id)?.told;
    this.reported.delete(landing.id);
    for (const listener of this.listeners) listener(landing.id, output);
    if (!told) return;
    this.landed.set(landing.id, { output, landedAt: this.now() });
    this.prune();
  }

  /** Hears every landing of this client (its MCP tasks store theirs). */
  listen(listener: (id: string, output: ToolOutput) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private prune(): void {
    const oldest = this.now() - this.keepMs;
    for (const [id, kept] of this.landed)
      if (kept.landedAt < oldest || this.landed.size > this.keepAtMost) this.landed.delete(id);
  }
}
