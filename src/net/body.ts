import { constants as bufferConstants } from "node:buffer";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Deadline } from "../core/deadline.js";
import { NetError } from "./failure.js";

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

export interface BodyLimits {
  /** Bytes read off the wire. */
  maxBytes: number;
  /** Bytes after decompression: a compression bomb stops here, not at out-of-memory. */
  maxDecodedBytes: number;
}

/** Content codings in the order they are to be undone; empty for none (or only "identity"). */
export function codingsOf(contentEncoding: string | undefined): string[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== "identity");
  // Codings are listed in the order they were applied, so they are undone in reverse.
  return codings.reverse();
}

/**
 * Undoes the content codings of a body whose wire bytes are already in (and within the wire cap). zlib's
 * `maxOutputLength` stops each stage as soon as its output passes the decoded cap, so a compression bomb ends
 * there, not at out-of-memory. zlib's work cannot be called back, so the deadline stops the waiting instead: on a
 * loaded machine inflating to the cap through the thread pool takes long enough to matter.
 */
export function decodeBody(
  wire: Buffer,
  codings: string[],
  maxDecodedBytes: number,
  host: string,
  deadline: Deadline,
): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const off = deadline.onAbort(reject);
    undoAll(wire, codings, maxDecodedBytes, host).then(
      (bytes) => {
        off();
        resolve(bytes);
      },
      (err) => {
        off();
        reject(err);
      },
    );
  });
}

async function undoAll(
  wire: Buffer,
  codings: string[],
  maxDecodedBytes: number,
  host: string,
): Promise<Buffer> {
  let bytes = wire;
  // An empty body (a 204, a HEAD-like answer) has nothing to undo; zlib would call it truncated.
  if (bytes.length === 0) return bytes;
  const tooLarge = () =>
    new NetError("too_large", `${host}'s body decompresses past ${maxDecodedBytes} bytes`, "body", {
      name: "decoded_bytes",
      limit: maxDecodedBytes,
    });
  const limit = zlibOutputLimit(maxDecodedBytes);
  for (const coding of codings) {
    try {
      bytes = await undo(coding, bytes, limit, host);
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
      throw err;
    }
  }
  if (bytes.length > maxDecodedBytes) throw tooLarge();
  return bytes;
}

/**
 * zlib takes a `maxOutputLength` from 1 to the largest Buffer only and throws for anything else, so a cap of 0 or
 * Infinity (which the streaming decoder took) made every coded body a "protocol" failure. A cap under 1 is held
 * by the length check after decoding.
 */
function zlibOutputLimit(maxDecodedBytes: number): number {
  if (!(maxDecodedBytes < bufferConstants.MAX_LENGTH)) return bufferConstants.MAX_LENGTH;
  return Math.max(1, Math.floor(maxDecodedBytes));
}

function undo(coding: string, bytes: Buffer, maxOutputLength: number, host: string): Promise<Buffer> {
  switch (coding) {
    case "gzip":
    case "x-gzip":
      // Z_SYNC_FLUSH: a stream cut short still yields what it holds, as browsers show a truncated page.
      return gunzip(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength });
    case "deflate":
      // HTTP's "deflate" is zlib-wrapped, but servers (old IIS, some CDNs) send raw deflate under that name and
      // browsers read both, told apart by the zlib header; a raw body fed to inflate failed as "protocol".
      return (hasZlibHeader(bytes) ? inflate : inflateRaw)(bytes, {
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
        maxOutputLength,
      });
    case "br":
      return brotliDecompress(bytes, { maxOutputLength });
    default:
      return Promise.reject(
        new NetError(
          "protocol",
          `${host} sent a body in content-encoding ${coding}, which is not supported`,
          "body",
        ),
      );
  }
}

/** RFC 1950: compression method 8 in the low nibble of the first byte, and the first two bytes a multiple of 31. */
function hasZlibHeader(bytes: Buffer): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}
