import zlib from "node:zlib";

/** One entry of a test archive: its data, or a deflated stream made elsewhere with the size it inflates to. */
export interface ZipEntrySpec {
  name: string;
  data?: string | Uint8Array;
  /** A raw deflate stream and what it inflates to (a bomb built without holding its inflated bytes). */
  deflated?: { bytes: Buffer; size: number };
  /** Stored rather than deflated (ODF and EPUB store their `mimetype` first). */
  store?: boolean;
  /** The uncompressed size written in the headers, when the test wants a zip that lies about it. */
  declaredSize?: number;
}

/**
 * A zip archive (PKWARE APPNOTE 4.3: local headers, central directory, end record), written by hand so that
 * tests can build archives no zip tool would: lying sizes, 100,000 entries, parts that inflate to hundreds of MB.
 */
export function makeZip(entries: ZipEntrySpec[], options: { declaredCount?: number } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const spec of entries) {
    const name = Buffer.from(spec.name, "utf8");
    const raw = spec.data === undefined ? Buffer.alloc(0) : Buffer.from(spec.data);
    const method = spec.deflated ? 8 : spec.store ? 0 : 8;
    const body = spec.deflated ? spec.deflated.bytes : spec.store ? raw : zlib.deflateRawSync(raw);
    const size = spec.declaredSize ?? (spec.deflated ? spec.deflated.size : raw.length);
    const crc = spec.deflated ? 0 : zlib.crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const count = options.declaredCount ?? entries.length;
  // More entries than the end record's 16 bits hold: a zip64 end record and its locator say the count.
  const zip64: Buffer[] = [];
  if (count >= 0xffff) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    zip64.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, ...zip64, end]);
}

/**
 * A raw deflate stream of `mb` MB of zeros, built from one deflated MB repeated: each copy ends in a full flush
 * (an empty stored block, byte-aligned, nothing referring back), so copies join into one stream. 400 MB take
 * about 400 KB and the test never holds the inflated bytes.
 */
export function zerosBomb(mb: number, fill = 0): { bytes: Buffer; size: number } {
  const one = zlib.deflateRawSync(Buffer.alloc(1024 * 1024, fill), {
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  const last = zlib.deflateRawSync(Buffer.alloc(0));
  return { bytes: Buffer.concat([...Array.from({ length: mb }, () => one), last]), size: mb * 1024 * 1024 };
}
