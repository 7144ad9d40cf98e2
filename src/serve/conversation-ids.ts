import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Conversation ids the service issues: 144 random bits and a MAC over them, so any instance holding the same key
 * tells an issued id from a guessed or made-up one without asking a store (which may be away). The id is the
 * capability: there is one API token, so binding a conversation to it would isolate no one.
 */
export class ConversationIds {
  private readonly key: Buffer;

  /**
   * `secret` is the API token where there is one: every instance of a fleet holds it, so they share the key and
   * honour each other's ids (a new token retires the old ids). Without it the key is this process's own.
   */
  constructor(secret?: string) {
    this.key = secret
      ? Buffer.from(hkdfSync("sha256", secret, "websift", "conversation ids", 32))
      : randomBytes(32);
  }

  issue(): string {
    const nonce = randomBytes(18).toString("base64url");
    return `${nonce}.${this.mac(nonce)}`;
  }

  /** True only for an id this key issued. */
  valid(id: string): boolean {
    const dot = id.indexOf(".");
    if (dot !== 24 || id.length !== 47) return false;
    const given = Buffer.from(id.slice(dot + 1));
    const want = Buffer.from(this.mac(id.slice(0, dot)));
    return given.length === want.length && timingSafeEqual(given, want);
  }

  private mac(nonce: string): string {
    return createHmac("sha256", this.key).update(nonce).digest().subarray(0, 16).toString("base64url");
  }
}
