import type { LookupKind } from "../session/lookup-key.js";
import type { SessionWebsift } from "../session/session.js";
import { attemptLine, readingLine, searchingLine } from "../surface/tools.js";

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
   * The instance the session calls, saying what each lookup does as the tools always have. `fetchBudgetMs` caps
   * one page read below the session's deadline (the server's timeoutMs option).
   */
  around(websift: SessionWebsift, fetchBudgetMs?: number): SessionWebsift {
    return {
      search: (query, options = {}) => {
        this.emit("search", query, searchingLine(query));
        return websift.search(query, {
          ...options,
          onAttempt: (a) => this.emit("search", query, attemptLine(a)),
        });
      },
      read: (url, options = {}) => {
        this.emit("read", url, readingLine(url));
        const deadline =
          fetchBudgetMs !== undefined && typeof options.deadline === "object"
            ? options.deadline.child(fetchBudgetMs)
            : options.deadline;
        return websift.read(url, { ...options, deadline });
      },
      answer: (query, options = {}) =>
        websift.answer(query, { ...options, onProgress: (line) => this.emit("answer", query, line) }),
    };
  }
}
