/**
 * What a zip archive says about itself, read from its headers without inflating anything: the `mimetype` an
 * OpenDocument file or an EPUB stores as its first entry, and the part names in the central directory (OOXML's
 * `[Content_Types].xml`, `word/document.xml`, …). For sniffing only: the capped reader opens the archive.
 */
export interface ZipMarkers {
  /** The stored first entry `mimetype`, when the archive starts with one. */
  mimetype?: string;
  /** Names in the central directory, up to the first MAX_NAMES. */
  names: string[];
}

const MAX_NAMES = 2000;
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;

export function zipMarkers(bytes: Uint8Array): ZipMarkers {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { mimetype: firstMimetype(buf), names: centralNames(buf) };
}

function firstMimetype(buf: Buffer): string | undefined {
  if (buf.length < 30 || buf.readUInt32LE(0) !== 0x04034b50) return undefined;
  const method = buf.readUInt16LE(8);
  const size = buf.readUInt32LE(18);
  const nameLength = buf.readUInt16LE(26);
  const extraLength = buf.readUInt16LE(28);
  if (method !== 0 || size > 100 || buf.toString("latin1", 30, 30 + nameLength) !== "mimetype")
    return undefined;
  const start = 30 + nameLength + extraLength;
  return buf.toString("latin1", start, Math.min(buf.length, start + size)).trim();
}

function centralNames(buf: Buffer): string[] {
  // The end record sits in the last 22 bytes plus a comment of at most 64 KB.
  const floor = Math.max(0, buf.length - 22 - 0xffff);
  let end = -1;
  for (let at = buf.length - 22; at >= floor; at--)
    if (buf.readUInt32LE(at) === EOCD) {
      end = at;
      break;
    }
  if (end < 0) return [];
  const count = Math.min(buf.readUInt16LE(end + 10), MAX_NAMES);
  let at = buf.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count && at + 46 <= buf.length && buf.readUInt32LE(at) === CENTRAL; i++) {
    const nameLength = buf.readUInt16LE(at + 28);
    names.push(buf.toString("utf8", at + 46, Math.min(buf.length, at + 46 + nameLength)));
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return names;
}
