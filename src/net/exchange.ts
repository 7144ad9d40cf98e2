import type { Dispatcher } from "undici";
import type { Deadline } from "../core/deadline.js";
import { codingsOf } from "./body.js";
import { BodyBuffer } from "./body-buffer.js";
import { NetError } from "./failure.js";

/** What one response may cost, as the exchange enforces it. */
export interface ExchangeCaps {
  /** Bytes read off the wire. */
  wireBytes: number;
  /** Applies instead when the response has no content coding (its wire bytes are its decoded bytes). */
  plainBytes: number;
  /** Stacked content codings a body may need undone. */
  codingLayers: number;
}

/**
 * One request and its response, as a handler on undici's dispatcher: the deadline, the byte caps (what the
 * head announces, what the wire brings) and the body collection in one object. undici's `request()` wraps every response in a Readable, a promise and a signal
 * listener, which together cost more client CPU than the whole policy on a keep-alive loopback request; here the
 * wire bytes land straight in an array that the cap watches as they arrive.
 *
 * `head` resolves once the status and headers are in. A small response arrives whole in one read, so by the time
 * the caller runs, `body()` usually has the bytes already and returns them without another promise.
 *
 * The deadline settles the exchange at once, whatever undici is doing: undici keeps a request queued until its
 * connection is up (connect timeout: 30 s) and only then hands over the controller that can abort it.
 */
export class Exchange implements Dispatcher.DispatchHandler {
  status = 0;
  headers: Record<string, string> = NO_HEADERS;
  /** The content codings to undo, in order; empty for a plain body. */
  codings: string[] = NO_CODINGS;
  readonly head: Promise<Exchange>;
  private resolveHead!: (exchange: Exchange) => void;
  private rejectHead!: (err: unknown) => void;
  private bodyWaiter: { resolve: (bytes: Buffer) => void; reject: (err: unknown) => void } | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  private readonly chunks = new BodyBuffer();
  private size = 0;
  private cap: number;
  private capName: "wire_bytes" | "decoded_bytes" = "wire_bytes";
  private keep = true;
  private ended = false;
  /** Set once the exchange has failed (deadline, cap, socket); later events from undici are ignored. */
  private failure: unknown;
  private off: (() => void) | undefined;

  private readonly plainCap: number;
  private readonly wireCap: number;
  private readonly codingLayers: number;
  /** The head passed the caps a body is judged by before its first byte is wanted. */
  private admitted = false;

  constructor(
    deadline: Deadline,
    private readonly host: string,
    caps: ExchangeCaps,
  ) {
    this.cap = caps.wireBytes;
    this.wireCap = caps.wireBytes;
    this.plainCap = Math.min(caps.wireBytes, caps.plainBytes);
    this.codingLayers = caps.codingLayers;
    this.head = new Promise<Exchange>((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
    this.off = deadline.onAbort((reason) => this.fail(reason));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // The deadline struck while the request waited for a connection: undici would send it once connected.
    if (this.failure !== undefined) controller.abort(this.failure as Error);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // 1xx informational heads come through here too; the real head follows.
    if (this.failure !== undefined || status < 200) return;
    this.status = status;
    this.headers = flattenHeaders(headers);
    const coding = this.headers["content-encoding"];
    if (coding) this.codings = codingsOf(coding);
    if (this.codings.length === 0 && this.plainCap < this.cap) {
      this.cap = this.plainCap;
      this.capName = "decoded_bytes";
    }
    this.resolveHead(this);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.failure !== undefined) return;
    this.size += chunk.length;
    if (this.size > this.cap) {
      const cap = { name: this.capName, limit: this.cap } as const;
      this.fail(new NetError("too_large", `${this.host} sent more than ${this.cap} bytes`, "body", cap));
      return;
    }
    if (this.keep) this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.failure !== undefined) return;
    this.ended = true;
    this.release();
    const waiter = this.bodyWaiter;
    if (waiter) {
      this.bodyWaiter = undefined;
      waiter.resolve(this.bytes());
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    this.fail(err);
  }

  /**
   * The wire bytes: at once when they are all in, else when they are. Asking for them first judges the head:
   * more stacked codings than allowed, or a plain body announced over the wire cap, ends the exchange before
   * its bytes are read (a redirect, whose body is discarded, is never judged so).
   */
  body(): Buffer | Promise<Buffer> {
    if (!this.admitted && this.failure === undefined) {
      this.admitted = true;
      const refusal = this.refusal();
      if (refusal) {
        // Even when the whole body is in already: it is refused, not handed over.
        this.cancel(refusal);
        return Promise.reject(refusal);
      }
    }
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.ended) return this.bytes();
    return new Promise<Buffer>((resolve, reject) => {
      this.bodyWaiter = { resolve, reject };
    });
  }

  /**
   * The body is not wanted (a redirect): a short one is still read to its end, so the connection can be reused;
   * past DRAIN_BYTES the connection is dropped instead. Read to the full wire cap, a redirect that trickles or
   * streams junk kept a socket busy and a deadline listener attached after the call itself had returned.
   */
  discard(): void {
    this.keep = false;
    this.chunks.clear();
    if (this.cap > DRAIN_BYTES) this.cap = DRAIN_BYTES;
    if (this.size > this.cap) this.fail(new NetError("too_large", "redirect body not drained", "body"));
  }

  /** Ends the exchange and its connection (a body announced over the cap). */
  cancel(reason: Error): void {
    this.chunks.clear();
    this.fail(reason);
  }

  private refusal(): NetError | undefined {
    if (this.codings.length > this.codingLayers) {
      const cap = { name: "coding_layers", limit: this.codingLayers } as const;
      const message = `${this.host} stacked ${this.codings.length} content codings, more than ${this.codingLayers}`;
      return new NetError("too_large", message, "body", cap, this.status);
    }
    const declared = Number(this.headers["content-length"]);
    if (Number.isFinite(declared) && declared > this.wireCap && !this.headers["content-encoding"]) {
      const message = `${this.host} announced ${declared} bytes, over ${this.wireCap}`;
      const cap = { name: "announced_bytes", limit: this.wireCap } as const;
      return new NetError("too_large", message, "body", cap, this.status);
    }
    return undefined;
  }

  private bytes(): Buffer {
    return this.chunks.take();
  }

  private fail(reason: unknown): void {
    if (this.failure !== undefined || this.ended) return;
    this.failure = reason ?? new Error("aborted");
    this.chunks.clear();
    this.release();
    this.controller?.abort(this.failure as Error);
    this.rejectHead(this.failure);
    const waiter = this.bodyWaiter;
    if (waiter) {
      this.bodyWaiter = undefined;
      waiter.reject(this.failure);
    }
  }

  private release(): void {
    const off = this.off;
    this.off = undefined;
    off?.();
  }
}

/** A redirect body worth reading to its end to keep the connection: real ones are a few hundred bytes. */
const DRAIN_BYTES = 64 * 1024;
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_CODINGS: string[] = [];

/**
 * One string per header. undici hands each response a freshly parsed object, names already lower-cased, with an
 * array only for a repeated header; joining those in place spares a copy of every header per response.
 */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  for (const k in headers) {
    const v = headers[k];
    if (v === undefined) delete headers[k];
    else if (typeof v !== "string") headers[k] = v.join(", ");
  }
  return headers as Record<string, string>;
}
