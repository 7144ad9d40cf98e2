import type { LookupKind } from "../session/lookup-key.js";
import type { SessionWebsift } from "../session/session.js";
import { attemptLine, readingLine, searchingLine } from "../surface/tools.js";
import { hookWebsift } from "../surface/websift-hooks.js";

type Listener = (line: string) => void;

/**
 * Progress lines of the session's lookups, to whichever calls are waiting on them at the moment. The session
 * runs one lookup for every caller asking the same, so its lines cannot go to a per-call callback: they go out
 * by lookup (kind and subject) to the calls listening now, and a call that has replied stops listening.
 */
export class LookupProgress {
  private readonly listeners = new Map<string, Set<Listener>>();

  listen(kind: LookupKind, subject: string, listener: Listener): () => void {
    const key = `${kind} ${subject}`;
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  private emit(kind: LookupKind, subject: string, line: string): void {
    for (const listener of this.listeners.get(`${kind} ${subject}`) ?? []) listener(line);
  }

  /**
   * The instance the session calls, saying what each lookup does as the tools always have. `fetchTimeoutMs` caps
   * one page read below the lookup's budget (the server's option of that name).
   */
  around(websift: SessionWebsift, fetchTimeoutMs?: number): SessionWebsift {
    return hookWebsift(websift, {
      search: {
        before: ([query, options = {}]) => {
          this.emit("search", query, searchingLine(query));
          return {
            args: [query, { ...options, onAttempt: (a) => this.emit("search", query, attemptLine(a)) }],
          };
        },
      },
      read: {
        before: ([url, options = {}]) => {
          this.emit("read", url, readingLine(url));
          const deadline =
            fetchTimeoutMs !== undefined && typeof options.deadline === "object"
              ? options.deadline.child(fetchTimeoutMs)
              : options.deadline;
          return { args: [url, { ...options, deadline }] };
        },
      },
      answer: {
        before: ([query, options = {}]) => ({
          args: [query, { ...options, onProgress: (line) => this.emit("answer", query, line) }],
        }),
      },
    });
  }
}
