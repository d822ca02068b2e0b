import { JSYAML_CORE_IMPLICIT, type ImplicitType } from './yaml-core-schema.js';

/**
 * A reader for the YAML this program writes itself (yaml-write.ts): the state
 * and the event log of every turn, tens of megabytes in a big campaign, which
 * js-yaml reads in over a second. Its value is always the one js-yaml's load
 * gives with its core schema (a property test holds it to that); it only
 * knows the layout the writer makes:
 *
 *   turn: 1                        # a block mapping of one-line values,
 *   units:                         # nested mappings and lists below a key,
 *     n0000-u1:
 *       hex: 3,4                   # plain scalars typed as js-yaml types them,
 *       name: 'Iron Guard: the first'   # single-quoted ones on one line,
 *       goals:
 *         - id: expand             # compact mappings and lists in lists,
 *       bonuses: []                # and empty flow lists and mappings.
 *
 * Anything else — a comment, a blank line of spaces, a tab or CR, a
 * double-quoted or block scalar, flow collections, anchors, aliases, tags,
 * directives, a plain scalar over several lines, a duplicate key, odd
 * indentation, characters js-yaml refuses — gives undefined, and js-yaml
 * reads the file: a GM's hand edit is read, and refused with its messages,
 * exactly as before.
 *
 * `types` are the implicit types of the js-yaml schema whose value it gives: js-yaml's core schema (the
 * turn's own files), or YAML_CORE_SCHEMA (order files, yaml-sheet-fast.ts). The shortcuts in typed() read
 * the same under both.
 */
export function readOwnYaml(text: string, types: readonly ImplicitType[] = JSYAML_CORE_IMPLICIT): { value: Record<string, unknown> } | undefined {
  if (SUSPECT.test(text) && (NON_PRINTABLE.test(text) || NOT_OURS.test(text))) return undefined;
  try {
    return { value: new OwnReader(text, types).document() };
  } catch (e) {
    if (e === UNUSUAL) return undefined;
    throw e;
  }
}

/** Characters that may need a closer look: controls, surrogates, the odd line breaks and spaces. */
const SUSPECT = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;
/** js-yaml's own test for characters it refuses in a scalar (its loader's PATTERN_NON_PRINTABLE). */
const NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
/** Tabs, carriage returns, Unicode line breaks and byte-order marks: layout the writer never makes. */
const NOT_OURS = /[\t\r\x85\u2028\u2029\ufeff]/;

/** Thrown (one object, no stack) when the text leaves the writer's layout. */
const UNUSUAL = new Error('not the writer’s layout');
function unusual(): never {
  throw UNUSUAL;
}

/** js-yaml stops at 100 levels of nodes; far below that, the reader leaves such a file to it. */
const MAX_DEPTH = 40;

/** Characters that cannot start a plain scalar or key (js-yaml's readPlainScalar); "-", "?" and ":" only before a space. */
const INDICATOR = new Uint8Array(128);
for (const c of ',[]{}#&*!|>\'"%@`') INDICATOR[c.charCodeAt(0)] = 1;
for (const c of '-?:') INDICATOR[c.charCodeAt(0)] = 2;

/**
 * First characters of every plain scalar js-yaml's core schema reads as null, a boolean or a number: 1 for
 * the symbols and digits, 2 for the letters, whose only such scalars are a few words.
 */
const MAY_BE_TYPED = new Uint8Array(128);
for (const c of '~-+.0123456789') MAY_BE_TYPED[c.charCodeAt(0)] = 1;
for (const c of 'nNtTfF') MAY_BE_TYPED[c.charCodeAt(0)] = 2;
const TYPED_WORDS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
const DECIMAL = /^(?:0|-?[1-9][0-9]{0,14})$/;
const HEX = /^[0-9]+,[0-9]+$/;

const SPACE = 32;
const COLON = 58;
const QUOTE = 39;
const HASH = 35;
const DASH = 45;

/** A plain scalar's value, as a js-yaml schema with these implicit types types it (in their order). */
function typed(raw: string, types: readonly ImplicitType[]): unknown {
  const c = raw.charCodeAt(0);
  const may = c < 128 ? MAY_BE_TYPED[c] : 0;
  if (may === 0 || (may === 2 && !TYPED_WORDS.has(raw))) return raw;
  if (may === 1) {
    if (DECIMAL.test(raw)) return +raw;
    if (HEX.test(raw)) return raw;
  }
  for (const type of types) if (type.resolve(raw)) return type.construct(raw);
  return raw;
}

/** How many of a mapping's first keys are looked for where they were in the last mapping at its depth. */
const KNOWN = 16;

/** The first KNOWN keys last read at one depth, each as written (up to its colon) and as js-yaml names it. */
class KnownKeys {
  readonly texts: string[] = [];
  readonly keys: string[] = [];
  /** How many of the first keys are known to differ from each other. */
  distinct = 0;

  learn(at: number, text: string, key: string): void {
    this.texts[at] = text;
    this.keys[at] = key;
    this.distinct = Math.min(this.distinct, at);
  }
}

function allDiffer(keys: readonly string[], count: number): boolean {
  for (let i = 1; i < count; i++) for (let j = 0; j < i; j++) if (keys[i] === keys[j]) return false;
  return true;
}

/**
 * The walk, line by line. The current line is [pos, end): pos is its first
 * character after the indentation (or, inside a list item, the item's first
 * character, the column a compact mapping's keys line up on), indent that
 * column, -1 past the last line.
 */
class OwnReader {
  private pos = 0;
  private lineStart = 0;
  private end = 0;
  private indent = -1;
  /** By depth, the keys last read there (see key()). */
  private readonly known: KnownKeys[] = [];

  constructor(
    private readonly text: string,
    private readonly types: readonly ImplicitType[],
  ) {
    this.line(0);
  }

  document(): Record<string, unknown> {
    if (this.indent !== 0 || this.isDash()) unusual();
    const value = this.mapping(0, 1);
    if (!this.atEnd()) unusual();
    return value;
  }

  /** Moves to the first line from `at` with something on it. */
  private line(at: number): void {
    const t = this.text;
    const n = t.length;
    for (;;) {
      if (at >= n) {
        this.pos = this.end = this.lineStart = n;
        this.indent = -1;
        return;
      }
      let end = t.indexOf('\n', at);
      if (end === -1) end = n;
      let p = at;
      while (t.charCodeAt(p) === SPACE) p++;
      if (p === end) {
        if (p !== at) unusual();
        at = end + 1;
        continue;
      }
      const c = t.charCodeAt(p);
      if (c === HASH || t.charCodeAt(end - 1) === SPACE) unusual();
      // "---" and "..." at the start of a line end a document.
      if (p === at && (c === DASH || c === 46) && t.charCodeAt(p + 1) === c && t.charCodeAt(p + 2) === c) unusual();
      this.lineStart = at;
      this.pos = p;
      this.end = end;
      this.indent = p - at;
      return;
    }
  }

  private atEnd(): boolean {
    return this.indent === -1;
  }

  private next(): void {
    this.line(this.end + 1);
  }

  /** A list item's "-" at pos. */
  private isDash(): boolean {
    return this.text.charCodeAt(this.pos) === DASH && (this.pos + 1 === this.end || this.text.charCodeAt(this.pos + 1) === SPACE);
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) unusual();
    const out: Record<string, unknown> = {};
    const known = (this.known[depth] ??= new KnownKeys());
    let count = 0;
    for (;;) {
      const key = this.key(known, count++, out);
      let value: unknown;
      if (this.pos === this.end) {
        this.next();
        if (this.indent > indent) value = this.isDash() ? this.sequence(this.indent, depth + 1) : this.mapping(this.indent, depth + 1);
        else if (this.indent === indent && this.isDash()) value = this.sequence(indent, depth + 1);
        else value = null;
      } else {
        value = this.scalar();
        this.next();
      }
      out[key] = value;
      if (this.indent > indent) unusual();
      if (this.indent < indent) break;
    }
    // js-yaml refuses a duplicate key: key() looks for one past the first KNOWN keys, which `known` now holds.
    const first = Math.min(count, KNOWN);
    if (first > known.distinct) {
      if (!allDiffer(known.keys, first)) unusual();
      known.distinct = first;
    }
    return out;
  }

  private sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH) unusual();
    const t = this.text;
    const out: unknown[] = [];
    for (;;) {
      let p = this.pos + 1;
      if (p === this.end) unusual();
      while (t.charCodeAt(p) === SPACE) p++;
      // The item as a line of its own, at its column.
      this.pos = p;
      this.indent = p - this.lineStart;
      if (this.isDash()) out.push(this.sequence(this.indent, depth + 1));
      else if (this.keyed()) out.push(this.mapping(this.indent, depth + 1));
      else {
        out.push(this.scalar());
        this.next();
      }
      if (this.indent < indent) return out;
      if (this.indent > indent) unusual();
      if (!this.isDash()) return out;
    }
  }

  /** Whether the line from pos is a mapping's entry ("key: ..."). */
  private keyed(): boolean {
    const t = this.text;
    if (t.charCodeAt(this.pos) === QUOTE) return t.charCodeAt(this.quoteEnd(this.pos) + 1) === COLON;
    return this.colon() !== -1;
  }

  /** The first ": " (or ":" ending the line) from pos, where a plain key ends; -1 without one. */
  private colon(): number {
    const t = this.text;
    for (let i = this.pos; i < this.end; i++) {
      const c = t.charCodeAt(i);
      if (c === COLON) {
        if (i + 1 === this.end || t.charCodeAt(i + 1) === SPACE) return i;
      } else if (c === HASH && t.charCodeAt(i - 1) === SPACE) unusual();
    }
    return -1;
  }

  /**
   * The key at pos, as js-yaml names it (the `at`th of mapping `out`); pos moves to its value (end: none on
   * this line). The keys of mappings at one depth mostly repeat (the units' id, nation, type, hex...), so the
   * first KNOWN are looked for where they were last time: a key string met before is one V8 has already made
   * a property name of.
   */
  private key(known: KnownKeys, at: number, out: Record<string, unknown>): string {
    const t = this.text;
    const seen = at < KNOWN ? known.texts[at] : undefined;
    let colon: number;
    if (seen !== undefined && t.startsWith(seen, this.pos) && t.charCodeAt((colon = this.pos + seen.length)) === COLON && (colon + 1 === this.end || t.charCodeAt(colon + 1) === SPACE)) {
      this.pos = this.valueAfter(colon);
      return known.keys[at]!;
    }
    let key: string;
    let text: string;
    if (t.charCodeAt(this.pos) === QUOTE) {
      const close = this.quoteEnd(this.pos);
      key = this.unquote(this.pos, close);
      colon = close + 1;
      if (t.charCodeAt(colon) !== COLON || (colon + 1 !== this.end && t.charCodeAt(colon + 1) !== SPACE)) unusual();
      text = t.slice(this.pos, colon);
    } else {
      colon = this.colon();
      const c = t.charCodeAt(this.pos);
      if (colon <= this.pos || (c < 128 && INDICATOR[c] !== 0) || t.charCodeAt(colon - 1) === SPACE) unusual();
      text = t.slice(this.pos, colon);
      key = String(typed(text, this.types));
    }
    // js-yaml stores "__proto__" its own way.
    if (key === '__proto__') unusual();
    if (at < KNOWN) known.learn(at, text, key);
    else if (Object.hasOwn(out, key)) unusual();
    this.pos = this.valueAfter(colon);
    return key;
  }

  /** Where the value after the colon at `colon` starts (the line's end: none on this line). */
  private valueAfter(colon: number): number {
    let v = colon + 1;
    while (v < this.end && this.text.charCodeAt(v) === SPACE) v++;
    return v;
  }

  /** The one-line scalar from pos to the line's end. */
  private scalar(): unknown {
    const t = this.text;
    const p = this.pos;
    const end = this.end;
    const c = t.charCodeAt(p);
    if (c === QUOTE) {
      const close = this.quoteEnd(p);
      if (close + 1 !== end) unusual();
      return this.unquote(p, close);
    }
    if (c < 128 && INDICATOR[c] !== 0) {
      if (end === p + 2 && ((c === 91 && t.charCodeAt(p + 1) === 93) || (c === 123 && t.charCodeAt(p + 1) === 125))) return c === 91 ? [] : {};
      if (INDICATOR[c] === 1 || p + 1 === end || t.charCodeAt(p + 1) === SPACE) unusual();
    }
    const raw = t.slice(p, end);
    if (raw.charCodeAt(raw.length - 1) === COLON || raw.includes(': ') || raw.includes(' #')) unusual();
    return typed(raw, this.types);
  }

  /** The closing quote of the single-quoted scalar opening at q, on its line. */
  private quoteEnd(q: number): number {
    const t = this.text;
    let from = q + 1;
    for (;;) {
      const at = t.indexOf("'", from);
      if (at === -1 || at >= this.end) unusual();
      if (t.charCodeAt(at + 1) !== QUOTE) return at;
      from = at + 2;
    }
  }

  private unquote(q: number, close: number): string {
    const s = this.text.slice(q + 1, close);
    return s.includes("''") ? s.replaceAll("''", "'") : s;
  }
}
