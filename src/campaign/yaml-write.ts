import jsyaml from 'js-yaml';
import { JSYAML_CORE_IMPLICIT } from './yaml-core-schema.js';
import { joinedBlocks, Utf8Blocks } from './yaml-bytes.js';

/**
 * The YAML writer for everything the processor writes: state, event logs and
 * reports, a few hundred megabytes a turn in a big campaign.
 *
 * Its output is byte for byte what `js-yaml`'s dump gives with the options
 * below (a property test holds it to that), so files written before and
 * after it are the same and both YAML readers read them back. It is faster
 * because it only handles the plain data the processor writes (objects,
 * arrays, strings, finite numbers, booleans, null) and decides most strings
 * with one pass over a line of printable text. Anything else — a float in exponent
 * form, a key over 1,024 characters or with a line break, a class instance —
 * is handed to js-yaml whole, which gives the reference answer (or its
 * error).
 *
 * The document is written straight into UTF-8 bytes (Utf8Blocks): most
 * strings are checked and copied in one pass, each key's opening ("\n    key: ")
 * is encoded once per file, and a big file allocates little besides its bytes.
 */
export const DUMP_OPTIONS = { lineWidth: -1, noRefs: true, schema: jsyaml.CORE_SCHEMA } as const;

/** Thrown inside the writer when js-yaml must take the whole document. */
class Unusual extends Error {}

export function writeYaml(value: unknown): string {
  const parts = writeFast(value, undefined);
  return parts ? joinedBlocks(parts).toString('utf8') : jsyaml.dump(value, DUMP_OPTIONS);
}

/** writeYaml's text in UTF-8, as a file holds it. */
export function writeYamlBytes(value: unknown): Buffer {
  return joinedBlocks(writeYamlParts(value));
}

/** writeYamlBytes in the blocks it was written into, for a file to take as they are (FileContent). */
export function writeYamlParts(value: unknown): Buffer[] {
  return writeFast(value, undefined) ?? [Buffer.from(jsyaml.dump(value, DUMP_OPTIONS))];
}

/**
 * writeYamlBytes of the document with the keys of the mappings in `sorted` in sorted order, as it writes a
 * copy of it with those mappings' keys inserted in sorted order (the built-in sort's, UTF-16 code units);
 * undefined when the fast writer cannot write it (the caller makes the copy and hands it to writeYaml,
 * which gives js-yaml's answer or error).
 */
export function writeYamlSorted(value: unknown, sorted: ReadonlySet<object>): Buffer[] | undefined {
  return writeFast(value, sorted);
}

function writeFast(value: unknown, sorted: ReadonlySet<object> | undefined): Buffer[] | undefined {
  if (value === undefined) return [Buffer.alloc(0)];
  try {
    const out = new Emitter(sorted);
    out.node(value, 0);
    return out.done();
  } catch (e) {
    if (e instanceof Unusual) return undefined;
    throw e;
  }
}

/** YAML 1.1 spellings js-yaml quotes for older readers. */
const YAML11_BOOLEANS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
const YAML11_BASE60 = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;

/**
 * One line of printable characters of the Basic Multilingual Plane (YAML's
 * printable set without line breaks, tabs and the byte-order mark): within
 * it, only ": ", " #" and the first and last characters can forbid a plain
 * scalar.
 */
const PRINTABLE_LINE = /^[\x20-\x7e\xa1-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;
const BREAKS_PLAIN = /: | #/;
/** Characters that may not start a plain scalar. */
const NOT_FIRST = new Set([...' -?:,[]{}#&*!|=>\'"%@`']);
/** Starts with a letter, ends with no space, holds nothing that can break a plain scalar (no ":", "#" or quote first). */
const WORDLIKE = /^[A-Za-z][\w ,.()'/-]*[\w,.()'/-]$|^[A-Za-z]$/;
/** Words of that shape that read back as null or a boolean (YAML 1.2 core, and the YAML 1.1 spellings js-yaml quotes). */
const RESERVED_WORDS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', ...YAML11_BOOLEANS]);
/** "col,row": no number in any YAML schema has a comma. */
const HEX_LIKE = /^\d+,\d+$/;
/** Only strings starting like this can read back as null, a boolean or a number. */
const MAY_BE_IMPLICIT = /^[-+.0-9~nNtTfF]/;

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** "\n" and the indentation of each level, made once. */
const LEADS: string[] = [];
const leadOf = (level: number) => (LEADS[level] ??= `\n${'  '.repeat(level)}`);
/** A sequence's item marker at each level, after a line break ("\n  - "). */
const ITEMS: Buffer[] = [];
const itemOf = (level: number) => (ITEMS[level] ??= utf8(`${leadOf(level)}- `));
const [DASH, EMPTY_LIST, EMPTY_MAP, SPACED_EMPTY_LIST, SPACED_EMPTY_MAP, NULL, TRUE, FALSE, NEWLINE, COLON, COLON_SPACE] = ['- ', '[]', '{}', ' []', ' {}', 'null', 'true', 'false', '\n', ':', ': '].map(utf8) as [
  Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer,
];

/** A key's openings at one level, in UTF-8: after a line break ("\n    key:") or first in a compact mapping ("key:"), each also followed by a space, before a value on the key's line. */
interface KeyOpenings {
  lead: Buffer;
  bare: Buffer;
  leadSpace: Buffer;
  bareSpace: Buffer;
}

/**
 * One document being written, as js-yaml's writeNode would write it: each
 * node writes its bytes in order. A mapping value that is a non-empty mapping
 * or list starts on the next line ("key:" then "\n  ..."), any other after a
 * space ("key: value"); a list item's mapping or list starts on the item's
 * line ("- key: ...", "- - ...").
 */
class Emitter {
  private readonly out = new Utf8Blocks();
  /** Each key's openings, by level. */
  private readonly keys: Map<string, KeyOpenings | string>[] = [];

  constructor(private readonly sorted: ReadonlySet<object> | undefined) {}

  done(): Buffer[] {
    this.out.bytes(NEWLINE);
    return this.out.parts();
  }

  /** A value standing alone or as a list item: its first line follows what is already on the line. */
  node(value: unknown, level: number): void {
    if (typeof value === 'object' && value !== null) {
      if (Array.isArray(value)) {
        if (value.length === 0) this.out.bytes(EMPTY_LIST);
        else this.sequence(value, level, true);
      } else if (!this.mapping(value, level, true)) this.out.bytes(EMPTY_MAP);
    } else this.scalar(value, level);
  }

  /** A scalar (undefined only as a list item, where it is null). */
  private scalar(value: unknown, level: number): void {
    switch (typeof value) {
      case 'string':
        this.string(value, level);
        return;
      case 'number':
        if (value >= 0 && value < 1e15 && Number.isInteger(value) && !Object.is(value, -0)) this.out.digits(value);
        else this.out.text(number(value));
        return;
      case 'boolean':
        this.out.bytes(value ? TRUE : FALSE);
        return;
      case 'undefined':
        this.out.bytes(NULL);
        return;
      case 'object':
        if (value === null) {
          this.out.bytes(NULL);
          return;
        }
        throw new Unusual();
      default:
        throw new Unusual();
    }
  }

  /** A mapping's entries, each on its own line (the first on the current one when compact); false when it has none. */
  private mapping(object: object, level: number, compact: boolean): boolean {
    if (Object.getPrototypeOf(object) !== Object.prototype && Object.getPrototypeOf(object) !== null) throw new Unusual();
    const record = object as Record<string, unknown>;
    const keys = this.sorted?.has(object) ? sortedKeys(record) : Object.keys(record);
    const openings = (this.keys[level] ??= new Map());
    let first = compact;
    let any = false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const value = record[key];
      if (value === undefined) continue;
      let opening = openings.get(key);
      if (opening === undefined || typeof opening === 'string') opening = this.opening(openings, key, level, opening);
      if (typeof value === 'object' && value !== null) {
        if (typeof opening === 'string') this.keyOnce(opening, level, first, false);
        else this.out.bytes(first ? opening.bare : opening.lead);
        if (Array.isArray(value)) {
          if (value.length === 0) this.out.bytes(SPACED_EMPTY_LIST);
          else this.sequence(value, level + 1, false);
        } else if (!this.mapping(value, level + 1, false)) this.out.bytes(SPACED_EMPTY_MAP);
      } else {
        if (typeof opening === 'string') this.keyOnce(opening, level, first, true);
        else this.out.bytes(first ? opening.bareSpace : opening.leadSpace);
        this.scalar(value, level + 1);
      }
      first = false;
      any = true;
    }
    return any;
  }

  /**
   * A key's openings at a level: its text the first time (a record's ids are met once each), its
   * openings in bytes from the second (the fields of a unit or an event are met thousands of times).
   */
  private opening(openings: Map<string, KeyOpenings | string>, key: string, level: number, seen: string | undefined): KeyOpenings | string {
    if (seen === undefined) {
      // A key with a line break needs js-yaml's double-quoted escapes in key position.
      if (key.includes('\n')) throw new Unusual();
      const k = stringText(key, 0);
      if (k.length > 1024) throw new Unusual();
      openings.set(key, k);
      return k;
    }
    const lead = leadOf(level);
    const made = { lead: utf8(`${lead}${seen}:`), bare: utf8(`${seen}:`), leadSpace: utf8(`${lead}${seen}: `), bareSpace: utf8(`${seen}: `) };
    openings.set(key, made);
    return made;
  }

  /** A key's opening written from its text. */
  private keyOnce(k: string, level: number, first: boolean, space: boolean): void {
    if (!first) this.out.text(leadOf(level));
    this.out.text(k);
    this.out.bytes(space ? COLON_SPACE : COLON);
  }

  /** A non-empty list's items, each on its own line (the first on the current one when compact). */
  private sequence(items: readonly unknown[], level: number, compact: boolean): void {
    const item = itemOf(level);
    for (let i = 0; i < items.length; i++) {
      this.out.bytes(compact && i === 0 ? DASH : item);
      const value = items[i];
      if (typeof value === 'object' && value !== null) {
        if (Array.isArray(value)) {
          if (value.length === 0) this.out.bytes(EMPTY_LIST);
          else this.sequence(value, level + 1, true);
        } else if (!this.mapping(value, level + 1, true)) this.out.bytes(EMPTY_MAP);
      } else this.scalar(value, level + 1);
    }
  }

  /** A string: most (ids, names, words) copied as they are in one pass, any other decided by stringText. */
  private string(s: string, level: number): void {
    const first = s.charCodeAt(0);
    if (((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)) && this.plainFromLetter(s)) return;
    this.out.text(stringText(s, level));
  }

  /**
   * A string starting with a letter, written plain if it is printable ASCII
   * that reads back as itself; false, with nothing written, otherwise.
   * After a letter, only a reserved word (null, true, yes, off...), ": ", " #"
   * or a space or ":" at the end can stop a plain scalar (see oneLine).
   */
  private plainFromLetter(s: string): boolean {
    const length = s.length;
    const out = this.out;
    const block = out.room(length);
    let p = out.pos;
    let previous = 0;
    for (let i = 0; i < length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e) return false;
      if ((c === 0x20 && previous === 0x3a) || (c === 0x23 && previous === 0x20)) return false;
      block[p++] = c;
      previous = c;
    }
    if (previous === 0x20 || previous === 0x3a) return false;
    if (length <= 5 && RESERVED_WORDS.has(s)) return false;
    out.pos = p;
    return true;
  }
}

/** A string's text, plain when it reads back as itself, else quoted the way js-yaml quotes it. */
function stringText(s: string, level: number): string {
  return oneLine(s) ?? multiLine(s, level);
}

/**
 * A record's keys in the order a copy of it made in sorted order lists them: sorted by the built-in sort
 * (UTF-16 code units), except that an object lists its array-index keys ("0", "17") first, in numeric order.
 * A "__proto__" key is no key of such a copy (it sets its prototype): js-yaml takes the copy.
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record).sort();
  let indices = false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const first = key.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39) indices ||= isArrayIndex(key);
    else if (key === '__proto__') throw new Unusual();
  }
  if (!indices) return keys;
  return [...keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isArrayIndex(k))];
}

const isArrayIndex = (key: string) => /^(?:0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1;

function number(n: number): string {
  if (Number.isInteger(n) && !Object.is(n, -0) && Math.abs(n) < 1e21) return String(n);
  const text = String(n);
  if (!Number.isFinite(n) || Object.is(n, -0) || text.includes('e')) throw new Unusual();
  return text;
}

function implicit(s: string): boolean {
  if (!MAY_BE_IMPLICIT.test(s)) return false;
  // The core schema's implicit scalars (null, bool, int, float): a plain string matching one would read back as it.
  return JSYAML_CORE_IMPLICIT.some((t) => t.resolve(s));
}

/** A string of one line of printable text, plain or single-quoted; undefined for any other (whose style js-yaml decides). */
function oneLine(s: string): string | undefined {
  // The two shapes most strings of a turn have — ids and names, hex keys — are
  // plain whenever they are not one of the few words that read as another type.
  if (WORDLIKE.test(s)) return s.length <= 5 && RESERVED_WORDS.has(s) ? `'${s}'` : s;
  if (HEX_LIKE.test(s)) return s;
  if (s === '') return "''";
  if (s.length <= 3 ? YAML11_BOOLEANS.has(s) : false) return `'${s}'`;
  if (MAY_BE_IMPLICIT.test(s) && YAML11_BASE60.test(s)) return `'${s}'`;
  if (!PRINTABLE_LINE.test(s)) return undefined;
  const plain = !NOT_FIRST.has(s[0]!) && !(s.endsWith(' ') || s.endsWith(':')) && !BREAKS_PLAIN.test(s) && !implicit(s);
  return plain ? s : `'${s.replace(/'/g, "''")}'`;
}

/**
 * Line breaks, tabs, control characters, astral characters: js-yaml's own
 * answer. Its style does not depend on where the string stands, except a
 * literal block's indentation, which is re-made for this level.
 */
function multiLine(s: string, level: number): string {
  const alone = jsyaml.dump(s, DUMP_OPTIONS).slice(0, -1);
  if (!alone.startsWith('|')) return alone;
  const header = alone.slice(0, alone.indexOf('\n') + 1);
  return header + reindentBlock(s, 2 * Math.max(1, level));
}

/** A literal block's lines, each non-empty line indented (js-yaml drops the final line break here). */
function reindentBlock(s: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  const lines = s.split('\n');
  const body = lines.map((line) => (line === '' ? '' : pad + line)).join('\n');
  return body.endsWith('\n') ? body.slice(0, -1) : body;
}
