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
  // One pass over the text's code units (the turn reads a thousand sheets): a line's indentation and leading
  // indicators ("- ", "? ", ": ") first, then its brackets up to a comment; bracket depth runs across lines.
  let flow = 0;
  let line = 1;
  let i = 0;
  const end = text.length;
  while (i <= end) {
    let p = i;
    while (p < end && isBlank(text.charCodeAt(p))) p++;
    const indent = p - i;
    let indicators = 0;
    // The indicators start after the indentation just measured.
    for (let q = p; ; ) {
      while (q < end && isBlank(text.charCodeAt(q))) q++;
      if (q >= end || !isIndicator(text.charCodeAt(q))) break;
      const after = q + 1 < end ? text.charCodeAt(q + 1) : -1;
      if (after !== -1 && !isBlank(after) && !isLineEnd(after)) break;
      indicators++;
      q++;
    }
    if (indent > max * 4 || indicators > max / 2) return line;
    let previous = -1;
    for (p = i; p < end; p++) {
      const c = text.charCodeAt(p);
      if (isLineEnd(c)) break;
      if (c === 0x23 && (previous === -1 || isJsSpace(previous))) {
        while (p < end && !isLineEnd(text.charCodeAt(p))) p++;
        break;
      }
      if (c === 0x5b || c === 0x7b) flow++;
      else if ((c === 0x5d || c === 0x7d) && flow > 0) flow--;
      if (flow > max) return line;
      previous = c;
    }
    // p is at the line's end: "\r\n", "\r" or "\n" ends it, or the text does.
    if (p >= end) return undefined;
    i = text.charCodeAt(p) === 0x0d && text.charCodeAt(p + 1) === 0x0a ? p + 2 : p + 1;
    line++;
  }
  return undefined;
}

const isBlank = (c: number) => c === 0x20 || c === 0x09;
const isLineEnd = (c: number) => c === 0x0a || c === 0x0d;
const isIndicator = (c: number) => c === 0x2d || c === 0x3f || c === 0x3a;
/** JavaScript's \s, as the comment rule has always read it (a line's own breaks never reach it). */
const isJsSpace = (c: number) =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
