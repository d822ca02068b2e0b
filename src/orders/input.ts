import { PLAYER_LIMITS } from '../campaign/yaml-io.js';
import type { RefusedLine } from '../core/orders.js';
import { WHOLE_FILE } from './sheet.js';

/**
 * The gate every order file and mail body passes before any parsing: size,
 * UTF-8, no binary. A refusal is one located problem, never an exception.
 */
export type Decoded = { ok: true; text: string } | { ok: false; problem: RefusedLine };

/** Same limit as YAML order files: orders are a few kilobytes. */
export const MAX_ORDER_BYTES = PLAYER_LIMITS.maxBytes;

const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/;

export function decodeOrderText(input: string | Uint8Array): Decoded {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > MAX_ORDER_BYTES) {
    return refuse(undefined, `the orders are ${size} bytes; the limit is ${MAX_ORDER_BYTES}`, 'orders fit in a few kilobytes: send only your orders');
  }
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    const bad = firstInvalidUtf8(input);
    if (bad !== undefined) {
      const line = 1 + countNewlines(input, bad);
      const byte = input[bad] ?? 0;
      return refuse(line, `the text is not UTF-8 (byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} on line ${line})`, 'save or send the orders as UTF-8 plain text');
    }
    text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const control = CONTROL.exec(text);
  if (control) {
    const line = 1 + (text.slice(0, control.index).match(/\r\n|\r|\n/g)?.length ?? 0);
    return refuse(line, `this is binary data, not text (control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} on line ${line})`, 'send the orders as plain text or a .yaml file');
  }
  return { ok: true, text };
}

function refuse(line: number | undefined, reason: string, hint: string): Decoded {
  return { ok: false, problem: { ...(line !== undefined ? { line } : {}), text: WHOLE_FILE, reason, hint } };
}

function countNewlines(bytes: Uint8Array, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x0a) n++;
  return n;
}

/** Offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included). */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min, cp] = [1, 0x80, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [need, min, cp] = [2, 0x800, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [need, min, cp] = [3, 0x10000, b & 0x07];
    else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return undefined;
}

/** Deepest nesting a player's YAML may have; orders need 3 or 4 levels. */
export const MAX_YAML_DEPTH = 32;

/**
 * Deeply nested YAML ("[[[[..." or "- - - - ...") overflows the YAML parser's
 * stack, and in Node 20 a later parse in the same process can then abort the
 * whole process (V8 "RegExpCompiler Allocation failed"). So nesting is
 * measured before parsing, conservatively (brackets inside quotes count too).
 * Returns the offending line, or undefined when the text is shallow enough.
 */
export function yamlTooDeep(text: string, max = MAX_YAML_DEPTH): number | undefined {
  let flow = 0;
  const lines = text.split(/\r\n|\r|\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n] as string;
    const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    const indicators = /^(?:[ \t]*[-?:](?:[ \t]+|$))*/.exec(line)?.[0].replace(/[^-?:]/g, '').length ?? 0;
    if (indent > max * 4 || indicators > max / 2) return n + 1;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (ch === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) break;
      if (ch === '[' || ch === '{') flow++;
      else if (ch === ']' || ch === '}') flow = Math.max(0, flow - 1);
      if (flow > max) return n + 1;
    }
  }
  return undefined;
}
