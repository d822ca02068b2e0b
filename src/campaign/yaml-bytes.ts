/**
 * The bytes of a document being written, in UTF-8: appended in place into
 * blocks that are never copied while they fill (a turn's events.yaml is
 * tens of megabytes), and handed over as those blocks (`parts`): a file is
 * written from them as they are, and only callers wanting one buffer join
 * them. Writing straight into bytes
 * makes no string per piece (no garbage to collect, no rope to flatten) and
 * the file needs no encoding afterwards.
 */
export class Utf8Blocks {
  private readonly full: Buffer[] = [];
  private block: Buffer;
  private size: number;
  /** Where the next byte goes in `block`. */
  pos = 0;

  constructor(first = 1024) {
    this.size = first;
    this.block = Buffer.allocUnsafe(first);
  }

  /** The current block, with room for `bytes` more bytes after `pos`. */
  room(bytes: number): Buffer {
    if (this.pos + bytes > this.block.length) this.next(bytes);
    return this.block;
  }

  private next(bytes: number): void {
    if (this.pos > 0) this.full.push(this.block.subarray(0, this.pos));
    this.size = Math.min(this.size * 2, MAX_BLOCK);
    this.block = Buffer.allocUnsafe(Math.max(this.size, bytes));
    this.pos = 0;
  }

  /** A string's UTF-8 bytes (ASCII copied here; any other text encoded by Buffer). */
  text(s: string): void {
    const length = s.length;
    const block = this.room(3 * length);
    let p = this.pos;
    for (let i = 0; i < length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) {
        this.pos += block.write(s, this.pos, 'utf8');
        return;
      }
      block[p++] = c;
    }
    this.pos = p;
  }

  /** Bytes made once (a key's opening, a line's indentation). */
  bytes(b: Uint8Array): void {
    const length = b.length;
    const block = this.room(length);
    let p = this.pos;
    for (let i = 0; i < length; i++) block[p++] = b[i]!;
    this.pos = p;
  }

  /** A non-negative integer's digits. */
  digits(n: number): void {
    const block = this.room(16);
    if (n < 10) {
      block[this.pos++] = 0x30 + n;
      return;
    }
    let end = this.pos;
    for (let m = n; m > 0; m = Math.floor(m / 10)) end++;
    this.pos = end;
    for (let m = n; m > 0; m = Math.floor(m / 10)) block[--end] = 0x30 + (m % 10);
  }

  /**
   * Everything written, as the blocks it filled, in order: a file takes them
   * as they are (one writev); joining tens of megabytes into one buffer first
   * cost the 1,000-nation turn a sixth of a second of copying and fresh pages.
   */
  parts(): Buffer[] {
    return [...this.full, this.block.subarray(0, this.pos)];
  }
}

/** Blocks as one buffer, for a caller that needs it so (a single block is not copied). */
export const joinedBlocks = (parts: Buffer[]): Buffer => (parts.length === 1 ? parts[0]! : Buffer.concat(parts));

/** Blocks grow to this size: past it, a bigger one would only cost more to join. */
const MAX_BLOCK = 1 << 20;
