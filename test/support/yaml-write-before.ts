/**
 * The YAML writer as it was before it wrote straight into bytes (src/campaign/yaml-write.ts at 7986e72), kept
 * unchanged as the reference the new one is held to, byte for byte (test/campaign/yaml-write-before.test.ts).
 * Do not "fix" it: it is what every turn folder written so far was written with.
 */
import jsyaml from 'js-yaml';
import { ChunkedText } from '../../src/core/chunked-text.js';
import { JSYAML_CORE_IMPLICIT } from '../../src/campaign/yaml-core-schema.js';

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
 */
const DUMP_OPTIONS = { lineWidth: -1, noRefs: true, schema: jsyaml.CORE_SCHEMA } as const;

/** Thrown inside the writer when js-yaml must take the whole document. */
class Unusual extends Error {}


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

export function writeYamlBefore(value: unknown): string {
  keyCache = new Map();
  try {
    const body = node(value, 0, true);
    return body === undefined ? '' : `${body}\n`;
  } catch (e) {
    if (e instanceof Unusual) return jsyaml.dump(value, DUMP_OPTIONS);
    throw e;
  } finally {
    keyCache = new Map();
  }
}

/** "\n" and the indentation of each level, made once. */
const LEADS: string[] = [];
const leadOf = (level: number) => (LEADS[level] ??= `\n${'  '.repeat(level)}`);

/** Keys repeat thousands of times (id, hex, health...): each is decided once per file. */
let keyCache = new Map<string, string>();

/** One value at a nesting level, as js-yaml's writeNode would write it (undefined: skipped). */
function node(value: unknown, level: number, compact: boolean): string | undefined {
  switch (typeof value) {
    case 'string':
      return scalar(value, level, false);
    case 'number':
      return number(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return undefined;
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return value.length === 0 ? '[]' : sequence(value, level, compact);
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) throw new Unusual();
      return mapping(value as Record<string, unknown>, level, compact);
    default:
      throw new Unusual();
  }
}

function mapping(object: Record<string, unknown>, level: number, compact: boolean): string {
  const keys = Object.keys(object);
  if (keys.length === 0) return '{}';
  const lead = leadOf(level);
  const out = new Entries(keys.length);
  for (const key of keys) {
    const value = object[key];
    if (value === undefined) continue;
    let k = keyCache.get(key);
    if (k === undefined) {
      k = scalar(key, level + 1, true);
      if (k.length > 1024) throw new Unusual();
      keyCache.set(key, k);
    }
    const v = node(value, level + 1, false) as string;
    out.add(`${!compact || !out.empty ? lead : ''}${k}${v.charCodeAt(0) === 10 ? ':' : ': '}${v}`);
  }
  return out.empty ? '{}' : out.text();
}

function sequence(items: readonly unknown[], level: number, compact: boolean): string {
  const lead = leadOf(level);
  const out = new Entries(items.length);
  for (const item of items) {
    const v = node(item === undefined ? null : item, level + 1, true) as string;
    out.add(`${!compact || !out.empty ? lead : ''}${v.charCodeAt(0) === 10 ? '-' : '- '}${v}`);
  }
  return out.text();
}

/**
 * The text of a mapping or a sequence, entry by entry: a big one (a turn's
 * units or events) in chunks, so that its millions of pieces die young (see
 * ChunkedText); a small one grown by `+=`, which is quicker.
 */
const BIG = 64;

class Entries {
  private small = '';
  private readonly big: ChunkedText | undefined;

  constructor(size: number) {
    if (size > BIG) this.big = new ChunkedText('', BIG);
  }

  get empty(): boolean {
    return this.big ? this.big.empty : this.small === '';
  }

  add(piece: string): void {
    if (this.big) this.big.add(piece);
    else this.small += piece;
  }

  text(): string {
    return this.big ? this.big.text() : this.small;
  }
}

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

/** A string, plain when it reads back as itself, else quoted the way js-yaml quotes it. */
function scalar(s: string, level: number, isKey: boolean): string {
  // The two shapes most strings of a turn have — ids and names, hex keys — are
  // plain whenever they are not one of the few words that read as another type.
  if (WORDLIKE.test(s)) return s.length <= 5 && RESERVED_WORDS.has(s) ? `'${s}'` : s;
  if (HEX_LIKE.test(s)) return s;
  if (s === '') return "''";
  if (s.length <= 3 ? YAML11_BOOLEANS.has(s) : false) return `'${s}'`;
  if (MAY_BE_IMPLICIT.test(s) && YAML11_BASE60.test(s)) return `'${s}'`;
  if (PRINTABLE_LINE.test(s)) {
    const plain = !NOT_FIRST.has(s[0]!) && !(s.endsWith(' ') || s.endsWith(':')) && !BREAKS_PLAIN.test(s) && !implicit(s);
    return plain ? s : `'${s.replace(/'/g, "''")}'`;
  }
  // Line breaks, tabs, control characters, astral characters. A key with a
  // line break needs js-yaml's double-quoted escapes in key position; any other
  // string's style does not depend on where it stands, except a literal block's
  // indentation, which is re-made for this level.
  if (isKey && s.includes('\n')) throw new Unusual();
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

/** The state file as stateYaml wrote it: each record copied with its keys inserted in sorted order first. */
export function stateYamlBefore(state: Record<string, unknown> & { nations: object; settlements: object; externals: object; units: object }): string {
  const sortRecord = <V>(r: Record<string, V>) => {
    const sorted: Record<string, V> = {};
    for (const key of Object.keys(r).sort()) sorted[key] = r[key]!;
    return sorted;
  };
  const { aspects, tradeRoutes } = state as { aspects?: unknown[]; tradeRoutes?: unknown[] };
  return writeYamlBefore({
    turn: state.turn,
    seq: state.seq,
    nations: sortRecord(state.nations as Record<string, unknown>),
    settlements: sortRecord(state.settlements as Record<string, unknown>),
    externals: sortRecord(state.externals as Record<string, unknown>),
    units: sortRecord(state.units as Record<string, unknown>),
    builds: state.builds,
    ...(aspects?.length ? { aspects } : {}),
    ...(tradeRoutes?.length ? { tradeRoutes } : {}),
  });
}
