import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

/**
 * The few parts of the tar format (POSIX ustar) a packed turn needs: regular
 * files, written with fixed owner, mode and time so the same files always
 * give the same bytes, and read back the same way. Any `tar` reads what this
 * writes (`tar xzf reports.tar.gz`), so a GM needs no fatecraft to open an
 * old turn. Hand-written (about a hundred lines) rather than a dependency:
 * only this subset is ever written or read here.
 */
const BLOCK = 512;

export interface TarEntry {
  /** "/"-separated path inside the archive. */
  name: string;
  bytes: Buffer;
}

/** The header and padded content of one regular file (a name too long for ustar goes before it in a pax header). */
export function tarEntry(name: string, bytes: Uint8Array): Buffer[] {
  const split = splitName(name);
  if (split) return block(split, '0', bytes);
  const record = paxRecord('path', name);
  return [...block(['', 'PaxHeader'], 'x', record), ...block(['', name.slice(0, 100)], '0', bytes)];
}

/** "<length> <key>=<value>\n", the length counting itself. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`, 'utf8');
}

function block([prefix, base]: [string, string], type: '0' | 'x', bytes: Uint8Array): Buffer[] {
  const header = Buffer.alloc(BLOCK);
  header.write(base, 0, 100, 'utf8');
  octal(header, 100, 8, 0o644);
  octal(header, 108, 8, 0);
  octal(header, 116, 8, 0);
  octal(header, 124, 12, bytes.length);
  octal(header, 136, 12, 0);
  header.write('        ', 148, 8, 'latin1');
  header.write(type, 156, 1, 'latin1');
  header.write('ustar\u000000', 257, 8, 'latin1');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'latin1');
  const pad = (BLOCK - (bytes.length % BLOCK)) % BLOCK;
  return [header, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), Buffer.alloc(pad)];
}

/** Two empty blocks end an archive. */
export const TAR_END = Buffer.alloc(2 * BLOCK);

function octal(header: Buffer, at: number, width: number, value: number): void {
  header.write(`${value.toString(8).padStart(width - 1, '0')}\u0000`, at, width, 'latin1');
}

/** ustar keeps a name in two fields: up to 155 bytes of folders and 100 of the rest; undefined when it does not fit. */
function splitName(name: string): [prefix: string, base: string] | undefined {
  if (Buffer.byteLength(name) <= 100) return ['', name];
  for (let cut = name.indexOf('/'); cut !== -1; cut = name.indexOf('/', cut + 1)) {
    const prefix = name.slice(0, cut);
    const base = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return [prefix, base];
  }
  return undefined;
}

/** The path a pax header gives the entry after it, if it gives one. */
function paxPath(record: Buffer): string | undefined {
  for (const line of record.toString('utf8').split('\n')) {
    const m = /^\d+ path=(.*)$/s.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

function field(header: Buffer, at: number, width: number): string {
  const raw = header.subarray(at, at + width);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? width : end).toString('utf8');
}

/** The regular files of a .tar.gz, in archive order, each read whole (one at a time in memory). */
export async function* readTarGz(path: string): AsyncGenerator<TarEntry> {
  let pending: Buffer = Buffer.alloc(0);
  let current: { name: string; size: number; parts: Buffer[]; got: number; type: string } | undefined;
  let skip = 0;
  let longName: string | undefined;
  for await (const chunk of createReadStream(path).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (skip > 0) {
        const n = Math.min(skip, pending.length);
        pending = pending.subarray(n);
        skip -= n;
        if (skip > 0) break;
      }
      if (current) {
        const n = Math.min(current.size - current.got, pending.length);
        current.parts.push(pending.subarray(0, n));
        current.got += n;
        pending = pending.subarray(n);
        if (current.got < current.size) break;
        const done = current;
        current = undefined;
        skip = (BLOCK - (done.size % BLOCK)) % BLOCK;
        if (done.type === 'x') longName = paxPath(Buffer.concat(done.parts));
        else if (done.type === '0' || done.type === '') {
          yield { name: longName ?? done.name, bytes: Buffer.concat(done.parts) };
          longName = undefined;
        }
        continue;
      }
      if (pending.length < BLOCK) break;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((b) => b === 0)) continue;
      const prefix = field(header, 345, 155);
      const base = field(header, 0, 100);
      const size = parseInt(field(header, 124, 12).trim() || '0', 8);
      current = { name: prefix ? `${prefix}/${base}` : base, size, parts: [], got: 0, type: field(header, 156, 1) };
    }
  }
  if (current) throw new Error(`${path}: the archive ends inside ${current.name}`);
}
