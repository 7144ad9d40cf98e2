/**
 * The memory that response bodies hold while they arrive, process-wide: what is held now and the most held at
 * once since the last `resetPeak()`. An operator's view of the byte caps, and the tests' proof that a body of
 * tiny chunks holds about its payload, not millions of buffers.
 */
export const bodyMemory = {
  held: 0,
  peak: 0,
  resetPeak(): void {
    this.peak = this.held;
  },
};

/**
 * Later chunks are copied into blocks that grow with the body, from MIN_BLOCK_BYTES to BLOCK_BYTES: a body of
 * two reads does not allocate 64 KiB, and a large one holds one entry per 64 KiB.
 */
export const BLOCK_BYTES = 64 * 1024;
const MIN_BLOCK_BYTES = 4 * 1024;
/**
 * What one held Buffer costs beside its bytes (the JS object, its backing-store record), as counted here: an
 * estimate, but it makes a body of a million 1-byte chunks count as what it is (about 100 MB), not as 1 MB.
 */
export const ENTRY_OVERHEAD_BYTES = 96;

/**
 * A response body as it comes off the wire. undici hands each parsed chunk over as a view into the socket's read
 * buffer, and a server may frame its body as 1-byte chunks: kept as they came, 3 MB of payload held millions of
 * small Buffers (1.4 GB before the wire cap tripped). The first chunk is kept as it is (most bodies arrive in one
 * read, and are then returned without a copy); every later one is copied into blocks of BLOCK_BYTES, so what is
 * held stays within the payload plus one block (and the first read).
 */
export class BodyBuffer {
  /** Payload bytes received. */
  size = 0;
  private first: Buffer | undefined;
  private blocks: Buffer[] | undefined;
  private block: Buffer | undefined;
  private used = 0;
  private counted = 0;

  push(chunk: Buffer): void {
    const n = chunk.length;
    if (n === 0) return;
    this.size += n;
    if (this.first === undefined && this.block === undefined) {
      this.first = chunk;
      this.count(n + ENTRY_OVERHEAD_BYTES);
      return;
    }
    let at = 0;
    while (at < n) {
      if (this.block === undefined || this.used === this.block.length) this.newBlock();
      const block = this.block as Buffer;
      const take = Math.min(n - at, block.length - this.used);
      chunk.copy(block, this.used, at, at + take);
      this.used += take;
      at += take;
    }
  }

  /** The whole body as one Buffer; the caller owns it from here, so it no longer counts as held. */
  take(): Buffer {
    if (this.block === undefined && this.first !== undefined) {
      const only = this.first;
      this.clear();
      return only;
    }
    const parts: Buffer[] = [];
    if (this.first) parts.push(this.first);
    if (this.blocks) for (const b of this.blocks) parts.push(b);
    if (this.block) parts.push(this.block.subarray(0, this.used));
    const bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts, this.size);
    this.clear();
    return bytes;
  }

  /** Drops what is held (a failed or discarded body). */
  clear(): void {
    this.first = undefined;
    this.blocks = undefined;
    this.block = undefined;
    this.used = 0;
    bodyMemory.held -= this.counted;
    this.counted = 0;
  }

  private newBlock(): void {
    if (this.block) {
      if (this.blocks) this.blocks.push(this.block);
      else this.blocks = [this.block];
    }
    const bytes = Math.min(BLOCK_BYTES, Math.max(MIN_BLOCK_BYTES, this.size));
    this.block = Buffer.allocUnsafe(bytes);
    this.used = 0;
    this.count(bytes + ENTRY_OVERHEAD_BYTES);
  }

  private count(bytes: number): void {
    this.counted += bytes;
    bodyMemory.held += bytes;
    if (bodyMemory.held > bodyMemory.peak) bodyMemory.peak = bodyMemory.held;
  }
}
