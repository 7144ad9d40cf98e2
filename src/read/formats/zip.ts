import type { Readable } from "node:stream";
import type { Entry, ZipFile } from "yauzl";
import type { Deadline } from "../../core/deadline.js";
import { errorLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";

/**
 * The one way websift opens an archive (office documents, e-books). Every limit is measured on the bytes
 * actually inflated, never taken from the sizes an entry declares: a few KB of deflated zeros inflate to
 * gigabytes, and a zip may declare any size it likes. yauzl reads the central directory and inflates entry by
 * entry with zlib (it also refuses an entry whose inflated size differs from the one declared); the counting
 * and the stopping are ours.
 */
export interface ZipLimits {
  /** Entries the archive may hold (directories included). */
  maxEntries: number;
  /** What one entry may inflate to. */
  maxEntryBytes: number;
  /** What all the entries read may inflate to, together. */
  maxTotalBytes: number;
}

// A long report or a novel's parts take a few MB inflated; a large spreadsheet's sheet tens of MB. The total
// matches the PDF reader's inflate cap (64 MB), and the worker's 1 GB heap holds it with room for the parsing.
export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 32 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
};

export type ZipFailure = { ok: false } & Failure;
/** An entry's bytes; `cut` when they stop at a cap because the caller asked for a cut rather than a refusal. */
export type ZipPart = { ok: true; bytes: Buffer; cut: boolean } | ZipFailure;

export interface ReadOptions {
  /** At a cap, keep what was inflated so far (a sheet read row by row) instead of refusing the document. */
  cut?: boolean;
}

export class CappedZip {
  private inflatedBytes = 0;

  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly limits: ZipLimits,
    private readonly deadline: Deadline,
  ) {}

  /** The archive's directory, or a failure: not a zip, too many entries, or past the deadline. */
  static async open(
    bytes: Uint8Array,
    deadline: Deadline,
    limits: ZipLimits = ZIP_LIMITS,
  ): Promise<{ ok: true; zip: CappedZip } | ZipFailure> {
    const { fromBufferPromise } = await import("yauzl");
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let zip: ZipFile;
    try {
      zip = await fromBufferPromise(buffer, { lazyEntries: true, autoClose: false, strictFileNames: false });
    } catch (err) {
      return corrupt(err);
    }
    // The count the end record declares bounds what yauzl will list: more than the cap is refused before any
    // entry is read, and an archive that declares fewer than it holds is read no further than it declares.
    if (zip.entryCount > limits.maxEntries) {
      zip.close();
      return tooLarge(`an archive of ${zip.entryCount} entries, over ${limits.maxEntries}`);
    }
    const entries = new Map<string, Entry>();
    try {
      for await (const entry of zip.eachEntry()) {
        if (deadline.expired()) {
          zip.close();
          return timeout();
        }
        // A name seen twice keeps its first entry, the one every reader of the format takes.
        if (!entry.fileName.endsWith("/") && !entries.has(entry.fileName)) entries.set(entry.fileName, entry);
      }
    } catch (err) {
      zip.close();
      return corrupt(err);
    }
    return { ok: true, zip: new CappedZip(zip, entries, limits, deadline) };
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Bytes inflated so far, by every read. */
  inflated(): number {
    return this.inflatedBytes;
  }

  /** One entry, inflated within what is left of the entry and total caps and the deadline. */
  async read(name: string, options: ReadOptions = {}): Promise<ZipPart> {
    const entry = this.entries.get(name);
    if (!entry)
      return { ok: false, status: "error", code: "missing_part", message: `the document has no ${name}` };
    if (entry.isEncrypted())
      return { ok: false, status: "unsupported", code: "encrypted", message: `${name} is encrypted` };
    const room = Math.min(this.limits.maxEntryBytes, this.limits.maxTotalBytes - this.inflatedBytes);
    const whole = this.limits.maxEntryBytes <= this.limits.maxTotalBytes - this.inflatedBytes;
    const past = whole
      ? `${name} inflates past ${mb(this.limits.maxEntryBytes)}`
      : `the document's parts inflate past ${mb(this.limits.maxTotalBytes)} in all`;
    if (room <= 0) return tooLarge(past);
    // A declared size past the cap is believed, since refusing costs nothing; one within it is never trusted.
    if (entry.uncompressedSize > room && !options.cut) return tooLarge(past);
    let stream: Readable;
    try {
      stream = await this.zip.openReadStreamPromise(entry);
    } catch (err) {
      return corrupt(err);
    }
    const part = await drain(stream, room, this.deadline);
    if (part.ok) {
      this.inflatedBytes += part.bytes.length;
      return { ok: true, bytes: part.bytes, cut: false };
    }
    if (part.reason === "cap") {
      if (!options.cut) return tooLarge(past);
      this.inflatedBytes += part.bytes.length;
      return { ok: true, bytes: part.bytes, cut: true };
    }
    return part.reason === "timeout" ? timeout() : corrupt(part.error);
  }

  close(): void {
    this.zip.close();
  }
}

type Drained =
  | { ok: true; bytes: Buffer }
  | { ok: false; reason: "cap"; bytes: Buffer }
  | { ok: false; reason: "timeout" }
  | { ok: false; reason: "error"; error: unknown };

/** Reads an inflating stream to its end, or stops it as soon as it passes `room` bytes or the deadline. */
function drain(stream: Readable, room: number, deadline: Deadline): Promise<Drained> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let got = 0;
    const stop = (result: Drained) => {
      stream.removeAllListeners("data");
      stream.removeAllListeners("end");
      stream.on("error", () => {});
      stream.destroy();
      resolve(result);
    };
    stream.on("data", (chunk: Buffer) => {
      if (deadline.expired()) return stop({ ok: false, reason: "timeout" });
      if (got + chunk.length > room) {
        chunks.push(chunk.subarray(0, room - got));
        return stop({ ok: false, reason: "cap", bytes: Buffer.concat(chunks) });
      }
      chunks.push(chunk);
      got += chunk.length;
    });
    stream.on("end", () => resolve({ ok: true, bytes: Buffer.concat(chunks) }));
    stream.on("error", (error) => stop({ ok: false, reason: "error", error }));
  });
}

function mb(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

function tooLarge(what: string): ZipFailure {
  return { ok: false, status: "unsupported", code: "too_large", message: `document refused: ${what}` };
}

function timeout(): ZipFailure {
  return { ok: false, status: "timeout", code: "timeout", message: "timeout while unpacking the document" };
}

function corrupt(err: unknown): ZipFailure {
  const reason = errorLine(err, 160);
  return {
    ok: false,
    status: "error",
    code: "corrupt_archive",
    message: `could not unpack the document: ${reason}`,
  };
}
