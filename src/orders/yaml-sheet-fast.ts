import jsyaml from 'js-yaml';
import { YAML_CORE_IMPLICIT, YAML_CORE_SCHEMA } from '../campaign/yaml-core-schema.js';
import { readOwnYaml } from '../campaign/yaml-read.js';
import type { LaidItem, YamlLayout } from './yaml-sheet.js';

/**
 * The fast path of readYamlSheet. The strict reader (the `yaml` package) reads
 * about 1 MB/s, seconds of CPU for a big turn's order files; js-yaml is about
 * five times faster but keeps no positions, and the sheet needs the line and
 * source text of every order and header. So the file is also walked line by
 * line, which is only possible for the plain layout almost every order file
 * has:
 *
 *   nation: argenta                 # a top-level key with a one-line value
 *   casualties:                     # or with a block list below it
 *     - argenta-4
 *   orders:
 *     - move: Iron Guard            # maps of one-line values, or of
 *       support: [a, b]             # flow lists, or of block lists of
 *       carry:                      # one-line values
 *         - argenta-3
 *     - rest argenta-2              # one-line text orders, quoted or not
 *     - {hold: argenta-5, fate: 1}  # one-line flow maps
 *
 * Anything else (tabs, block scalars, values over several lines, anchors,
 * tags, keys that are not plain words, a comment where the strict reader's
 * idea of an order's extent is subtle...) gives undefined, and the strict
 * reader reads the file: it is never worth being clever about rare files.
 * So does a file where the walk and js-yaml's value disagree on the shape.
 */
export interface FastRead {
  value: unknown;
  layout: YamlLayout;
}

/**
 * Tabs and lone CRs make indentation and lines ambiguous between readers; the
 * rest are characters that JavaScript's trim() removes but YAML keeps, or
 * that the strict reader refuses: not worth reasoning about.
 */
const UNUSUAL = /[\t\v\f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|\r(?!\n)/;

/** Keys as players write them; a key that reads as null or a boolean is not a string to YAML. */
const KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const NOT_STRING_KEY = /^(?:null|true|false)$/i;
const isPlainKey = (key: string) => KEY.test(key) && !NOT_STRING_KEY.test(key);

/** Characters that start something other than a plain scalar (or are reserved) when first. */
const INDICATOR = new Set([...'-?:,[]{}#&*!|>\'"%@`']);
/** Flow lists nest this deep at most in an order file; deeper goes to the strict reader. */
const MAX_FLOW_DEPTH = 3;

interface Line {
  /** Without its line break. */
  text: string;
  start: number;
  indent: number;
  /** Nothing but spaces and perhaps a comment. */
  empty: boolean;
}

interface Top {
  key: string;
  /** 1-based line of the value (a block list's first item; the key's line for the rest). */
  line: number;
  shape: Shape;
  items?: ScannedItem[];
}

type Shape = 'null' | 'scalar' | 'map' | 'seq';

interface ScannedItem extends LaidItem {
  scanned: Shape;
  /** A block map's keys in order, to hold js-yaml's value to them. */
  keys?: string[];
}

/** Thrown inside the walk when the file is outside the layout it knows. */
class Unusual extends Error {}

function bail(): never {
  throw new Unusual();
}

export function readYamlFast(source: string): FastRead | undefined {
  if (UNUSUAL.test(source)) return undefined;
  let tops: Top[];
  try {
    tops = new Walk(source).document();
  } catch (e) {
    if (e instanceof Unusual) return undefined;
    throw e;
  }
  let value: unknown;
  try {
    // Files in the plain block layout (the generator's, the mail loop's) read without js-yaml (yaml-read.ts).
    value = readOwnYaml(source, YAML_CORE_IMPLICIT)?.value ?? jsyaml.load(source, { schema: YAML_CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (!agrees(value, tops)) return undefined;
  const byKey = new Map(tops.map((t) => [t.key, t]));
  return {
    value,
    layout: {
      lineOf: (key) => byKey.get(key)?.line,
      itemsOf: (key) => byKey.get(key)?.items,
    },
  };
}

/** js-yaml saw the same keys, lists and maps as the walk: the lines and texts belong to its value. */
function agrees(value: unknown, tops: Top[]): boolean {
  if (!isMap(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== tops.length) return false;
  return tops.every((top, i) => {
    if (keys[i] !== top.key) return false;
    const v = value[top.key];
    if (!shapeIs(v, top.shape)) return false;
    if (!top.items) return true;
    return (
      Array.isArray(v) &&
      v.length === top.items.length &&
      top.items.every((item, k) => shapeIs(v[k], item.scanned) && (!item.keys || sameKeys(v[k] as Record<string, unknown>, item.keys)))
    );
  });
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function shapeIs(v: unknown, shape: Shape): boolean {
  if (shape === 'null') return v === null;
  if (shape === 'seq') return Array.isArray(v);
  if (shape === 'map') return isMap(v);
  return typeof v !== 'object' || v === null;
}

function sameKeys(v: Record<string, unknown>, keys: string[]): boolean {
  const actual = Object.keys(v);
  return actual.length === keys.length && actual.every((k, i) => k === keys[i]);
}

/** A walk over the lines of one file; every method throws Unusual on what it does not know. */
class Walk {
  private readonly lines: Line[] = [];

  constructor(source: string) {
    for (let start = 0; start <= source.length; ) {
      const nl = source.indexOf('\n', start);
      const end = nl === -1 ? source.length : nl;
      const text = source.slice(start, end > start && source[end - 1] === '\r' ? end - 1 : end);
      let indent = 0;
      while (text.charCodeAt(indent) === 32) indent++;
      this.lines.push({ text, start, indent, empty: indent === text.length || text[indent] === '#' });
      if (nl === -1) break;
      start = nl + 1;
    }
  }

  document(): Top[] {
    const tops: Top[] = [];
    let i = this.next(0);
    while (i < this.lines.length) {
      const line = this.lines[i] as Line;
      if (line.indent !== 0) bail();
      const key = keyAt(line.text, 0) ?? bail();
      const pos = skipSpaces(line.text, key.length + 1);
      if (isEnd(line.text, pos)) {
        const j = this.next(i + 1);
        const below = this.lines[j];
        if (below && isDash(below)) {
          const list = this.list(j, true);
          tops.push({ key, line: j + 1, shape: 'seq', items: list.items });
          i = list.next;
        } else {
          // Anything else indented below an empty key (a map, a scalar's next line) is not this layout.
          if (below && below.indent > 0) bail();
          tops.push({ key, line: i + 1, shape: 'null' });
          i = j;
        }
      } else {
        const token = lexValue(line.text, pos);
        endOfLine(line.text, token.end);
        const top: Top = { key, line: i + 1, shape: token.shape };
        if (token.shape === 'seq' && token.elements) {
          top.items = token.elements.map((e) => ({ line: i + 1, range: [line.start + e.start, line.start + e.end], shape: laid(e.shape), scanned: e.shape }));
        }
        tops.push(top);
        i = this.next(i + 1);
      }
    }
    if (tops.length === 0) bail();
    return tops;
  }

  /** A block list whose first "- " is on line `from`; its items are maps only when `maps`. */
  private list(from: number, maps: boolean): { items: ScannedItem[]; next: number; last: number } {
    const indent = (this.lines[from] as Line).indent;
    const items: ScannedItem[] = [];
    let i = from;
    let last = from;
    for (let line = this.lines[i]; line && line.indent === indent && isDash(line); line = this.lines[i]) {
      const at = skipSpaces(line.text, indent + 1);
      // "-" alone (a null item, or a map starting on the next line) and "- - x" are not this layout.
      if (isEnd(line.text, at)) bail();
      const key = maps ? keyAt(line.text, at) : undefined;
      if (key !== undefined) {
        const map = this.map(i, at);
        items.push({ line: i + 1, range: [line.start + at, map.end], shape: 'map', scanned: 'map', keys: map.keys });
        last = map.last;
        i = map.next;
      } else {
        const token = lexValue(line.text, at);
        endOfLine(line.text, token.end);
        items.push({ line: i + 1, range: [line.start + at, line.start + token.end], shape: laid(token.shape), scanned: token.shape });
        last = i;
        i = this.next(i + 1);
      }
    }
    return { items, next: i, last };
  }

  /**
   * A block map whose first key is at column `col` of line `from`. Its end is
   * the end of its last content line, comment included, as the strict reader
   * counts it; comment lines after that line are outside only in the cases
   * checked at the end (the strict reader counts some in, depending on their
   * indentation and the last value).
   */
  private map(from: number, col: number): { keys: string[]; end: number; last: number; next: number } {
    const keys: string[] = [];
    let i = from;
    let last = from;
    /** Comment lines after the map are outside it only when indented at most this much. */
    let outside = -1;
    for (;;) {
      const line = this.lines[i] as Line;
      const key = keyAt(line.text, col) ?? bail();
      keys.push(key);
      const pos = skipSpaces(line.text, col + key.length + 1);
      if (isEnd(line.text, pos)) {
        const j = this.next(i + 1);
        const below = this.lines[j];
        if (below && below.indent >= col && isDash(below)) {
          // The strict reader counts comment lines indented as far as the list's dashes into the list.
          const list = this.list(j, false);
          outside = below.indent - 1;
          last = list.last;
          i = list.next;
        } else {
          // An empty value takes every comment line after it, whatever its indentation.
          outside = -1;
          last = i;
          i = j;
        }
      } else {
        endOfLine(line.text, lexValue(line.text, pos).end);
        // A one-line value takes the comment lines indented past the map's keys.
        outside = col;
        last = i;
        i = this.next(i + 1);
      }
      const following = this.lines[i];
      if (!following || following.indent < col) break;
      if (following.indent > col) bail();
    }
    for (let k = last + 1; k < i; k++) {
      const line = this.lines[k] as Line;
      if (line.indent < line.text.length && line.indent > outside) bail();
    }
    const lastLine = this.lines[last] as Line;
    return { keys, end: lastLine.start + lastLine.text.length, last, next: i };
  }

  /** The first line from `i` on with content (not blank, not only a comment). */
  private next(i: number): number {
    while (i < this.lines.length && (this.lines[i] as Line).empty) i++;
    return i;
  }
}

function laid(shape: Shape): LaidItem['shape'] {
  return shape === 'scalar' ? 'scalar' : shape === 'map' ? 'map' : 'other';
}

function isDash(line: Line): boolean {
  return line.text[line.indent] === '-' && (line.text.length === line.indent + 1 || line.text[line.indent + 1] === ' ');
}

/** "key:" followed by a space or the end of the line, with a key that is a plain word. */
function keyAt(text: string, pos: number): string | undefined {
  const colon = text.indexOf(':', pos);
  if (colon === -1 || (colon + 1 < text.length && text[colon + 1] !== ' ')) return undefined;
  const key = text.slice(pos, colon);
  return isPlainKey(key) ? key : undefined;
}

function skipSpaces(text: string, pos: number): number {
  while (text.charCodeAt(pos) === 32) pos++;
  return pos;
}

/** Nothing but a comment (or nothing) from pos. */
function isEnd(text: string, pos: number): boolean {
  return pos >= text.length || text[pos] === '#';
}

/** After a value only spaces and a comment set off by a space may follow. */
function endOfLine(text: string, end: number): void {
  const pos = skipSpaces(text, end);
  if (pos < text.length && !(text[pos] === '#' && pos > end)) bail();
}

interface Token {
  /** Offset just after the value on its line. */
  end: number;
  shape: Shape;
  /** A flow list's items. */
  elements?: { start: number; end: number; shape: Shape }[];
}

/** One value that ends on its line: a plain or quoted scalar, or a flow list or map. */
function lexValue(text: string, pos: number): Token {
  const c = text[pos];
  if (c === '[' || c === '{') return flow(text, pos, 1);
  if (c === "'" || c === '"') return { end: quoted(text, pos), shape: 'scalar' };
  if (c === undefined || (INDICATOR.has(c) && !(c === '-' && pos + 1 < text.length && text[pos + 1] !== ' '))) bail();
  let end = pos;
  for (let k = pos; k < text.length; k++) {
    const ch = text[k];
    if (ch === '#' && text[k - 1] === ' ') break;
    // ": " would start a map inside the value.
    if (ch === ':' && (k + 1 === text.length || text[k + 1] === ' ')) bail();
    if (ch !== ' ') end = k + 1;
  }
  return { end, shape: 'scalar' };
}

/** A quoted scalar closed on the same line; escapes in double quotes are left to the strict reader. */
function quoted(text: string, pos: number): number {
  const q = text[pos];
  for (let k = pos + 1; k < text.length; k++) {
    const ch = text[k];
    if (ch === '\\' && q === '"') bail();
    if (ch === q) {
      if (q === "'" && text[k + 1] === "'") k++;
      else return k + 1;
    }
  }
  return bail();
}

/** A flow list or map closed on the same line, without comments, trailing commas or keys other than words. */
function flow(text: string, pos: number, depth: number): Token {
  if (depth > MAX_FLOW_DEPTH) bail();
  const isList = text[pos] === '[';
  const close = isList ? ']' : '}';
  const elements: { start: number; end: number; shape: Shape }[] = [];
  let k = skipSpaces(text, pos + 1);
  if (text[k] === close) return { end: k + 1, shape: isList ? 'seq' : 'map', elements };
  for (;;) {
    if (!isList) {
      const colon = text.indexOf(':', k);
      const key = text.slice(k, colon);
      if (colon === -1 || text[colon + 1] !== ' ' || !isPlainKey(key)) bail();
      k = skipSpaces(text, colon + 1);
    }
    const element = flowValue(text, k, depth);
    elements.push({ start: k, end: element.end, shape: element.shape });
    k = skipSpaces(text, element.end);
    if (text[k] === close) return { end: k + 1, shape: isList ? 'seq' : 'map', elements };
    if (text[k] !== ',') bail();
    k = skipSpaces(text, k + 1);
    if (text[k] === close) bail();
  }
}

function flowValue(text: string, pos: number, depth: number): Token {
  const c = text[pos];
  if (c === '[' || c === '{') return flow(text, pos, depth + 1);
  if (c === "'" || c === '"') return { end: quoted(text, pos), shape: 'scalar' };
  if (c === undefined || (INDICATOR.has(c) && !(c === '-' && /[^ ,[\]{}:#]/.test(text[pos + 1] ?? ' ')))) bail();
  let end = pos;
  for (let k = pos; k < text.length; k++) {
    const ch = text[k] as string;
    if (ch === ',' || ch === ']' || ch === '}') return { end, shape: 'scalar' };
    // "a: b" in a list is a map, "#" may start a comment, "[" or "{" a collection: all left to the strict reader.
    if (ch === ':' || ch === '#' || ch === '[' || ch === '{') bail();
    if (ch !== ' ') end = k + 1;
  }
  return bail();
}
