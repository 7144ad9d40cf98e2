/** What `doctor` and the logs report about the shared state: which backend, and whether it is standing in. */
export interface StoreStatus {
  backend: "memory" | "sqlite" | "redis";
  degraded: boolean;
  reason?: string;
}

/**
 * Tracks whether a backend is healthy and logs each transition once, so an outage of minutes costs two log lines
 * rather than one per search.
 */
export class BackendHealth {
  private reason: string | undefined;

  constructor(
    private readonly backend: StoreStatus["backend"],
    private readonly log: (line: string) => void,
  ) {}

  get degraded(): boolean {
    return this.reason !== undefined;
  }

  degrade(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.log(`store: ${this.backend} unavailable (${reason}); using an in-process fallback until it is back`);
  }

  recover(): void {
    if (this.reason === undefined) return;
    this.reason = undefined;
    this.log(`store: ${this.backend} is back; shared state restored`);
  }

  status(): StoreStatus {
    return this.reason === undefined
      ? { backend: this.backend, degraded: false }
      : { backend: this.backend, degraded: true, reason: this.reason };
  }
}
