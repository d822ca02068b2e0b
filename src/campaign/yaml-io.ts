import jsyaml from 'js-yaml';
import { isAlias, isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { readOwnYaml } from './yaml-read.js';

/**
 * The one place YAML is read and written. Everything a player or GM hands in
 * goes through readYaml: size-limited, no anchors/aliases (no YAML bombs), no
 * custom tags, UTF-8 only, and every problem located by line.
 */
export interface YamlProblem {
  line?: number;
  message: string;
}

export type YamlRead = { ok: true; value: unknown; doc: Document; lines: LineCounter; locate: Locate } | { ok: false; problems: YamlProblem[] };

/** The line of the node at a key path, for error messages. */
export type Locate = (path: readonly (string | number)[]) => number | undefined;

export type BulkRead = { ok: true; value: unknown; locate: Locate } | { ok: false; problems: YamlProblem[] };

export interface ReadLimits {
  maxBytes: number;
  allowAliases: boolean;
}

export const PLAYER_LIMITS: ReadLimits = { maxBytes: 256 * 1024, allowAliases: false };
/** GM-written files (campaign, state) can be big (a 400x400 map) and may use anchors. */
export const GM_LIMITS: ReadLimits = { maxBytes: 256 * 1024 * 1024, allowAliases: true };

export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The only tags a file may carry: those of plain YAML. Any other is refused,
 * also the yaml.org ones the parser would quietly read as a string
 * (!!js/function, !!python/object) or decode (!!binary, !!timestamp, !!set).
 * js-yaml's CORE_SCHEMA, the fast path of readBulkYaml, knows exactly these.
 */
export const PLAIN_TAGS: ReadonlySet<string> = new Set(['str', 'int', 'float', 'bool', 'null', 'seq', 'map'].map((t) => `tag:yaml.org,2002:${t}`));

export function readYaml(input: string | Uint8Array, limits: ReadLimits, opts: { uniqueKeys?: boolean } = {}): YamlRead {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > limits.maxBytes) return { ok: false, problems: [{ message: `the file is ${size} bytes; the limit is ${limits.maxBytes}` }] };
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  if (text === undefined) return { ok: false, problems: [{ message: 'the file is not UTF-8 text' }] };
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) return { ok: false, problems: [{ message: 'the file contains binary control characters' }] };
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: opts.uniqueKeys ?? true, prettyErrors: false, strict: true, customTags: [] });
  const problems: YamlProblem[] = doc.errors.filter((e) => e.code !== 'DUPLICATE_KEY').map((e) => ({ line: e.linePos?.[0]?.line ?? lineOf(lines, e.pos[0]), message: e.message.split('\n')[0] ?? e.message }));
  if (doc.errors.some((e) => e.code === 'DUPLICATE_KEY')) problems.push(...duplicateKeys(text));
  if (!limits.allowAliases) {
    visit(doc, {
      Alias(_, node) {
        problems.push({ line: lineOf(lines, node.range?.[0]), message: 'anchors and aliases (*name) are not allowed here' });
      },
      Node(_, node) {
        if (isAlias(node)) return;
        if (node.anchor) problems.push({ line: lineOf(lines, node.range?.[0]), message: `anchor &${node.anchor} is not allowed here` });
      },
    });
  }
  visit(doc, {
    Node(_, node) {
      if (node.tag && !PLAIN_TAGS.has(node.tag)) {
        const shown = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
        problems.push({ line: lineOf(lines, node.range?.[0]), message: `unknown tag ${shown}; fatecraft's files are plain YAML (strings, numbers, true/false, lists and maps), without tags` });
      }
    },
  });
  if (problems.length > 0) return { ok: false, problems };
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: limits.allowAliases ? 100 : 0 }), doc, lines, locate: (path) => lineAt(doc, lines, path) };
  } catch (e) {
    return { ok: false, problems: [{ message: (e as Error).message }] };
  }
}

/** Each key given twice in one map, named, at its second line, with its first: "the key "turn" is given twice (first on line 2)". */
function duplicateKeys(text: string): YamlProblem[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: true, customTags: [] });
  const out: YamlProblem[] = [];
  visit(doc, {
    Map(_, map) {
      const first = new Map<string, number | undefined>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const at = lineOf(lines, (pair.key as { range?: [number, number, number] } | null)?.range?.[0]);
        if (!first.has(key)) first.set(key, at);
        else out.push({ ...(at !== undefined ? { line: at } : {}), message: `the key "${key}" is given twice in one map (first on line ${first.get(key) ?? '?'}); keys must be unique: keep one` });
      }
    },
  });
  return out;
}

export function lineOf(lines: LineCounter, offset: number | undefined): number | undefined {
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

/** The line of the node at a path (e.g. ['orders', 3, 'to']), for error messages. */
export function lineAt(doc: Document, lines: LineCounter, path: readonly (string | number)[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (node && typeof node === 'object' && 'range' in node) {
      const range = (node as { range?: [number, number, number] }).range;
      if (range) return lineOf(lines, range[0]);
    }
    if (isScalar(node) && node.range) return lineOf(lines, node.range[0]);
  }
  return undefined;
}

/**
 * Up to this size a file js-yaml cannot read is read again by the strict
 * reader, whose messages are better worded. Beyond it js-yaml's own message
 * and line stand: the strict reader is worse than linear on some broken
 * files (an unclosed "[" near the top of an 11 MB state took it four
 * minutes, where js-yaml found the line in 30 ms).
 */
export const STRICT_REREAD_BYTES = 1024 * 1024;

/**
 * Reads a big machine-written file (a state or event log of 100,000 units)
 * quickly: js-yaml parses it about five times faster than the strict reader,
 * and the reader of the writer's own layout twice as fast again.
 * Only when something is wrong does the strict reader run, to give the
 * problem its line (in a small file; see STRICT_REREAD_BYTES).
 */
export function readBulkYaml(input: Uint8Array, limits: ReadLimits): BulkRead {
  if (input.byteLength > limits.maxBytes) return { ok: false, problems: [{ message: `the file is ${input.byteLength} bytes; the limit is ${limits.maxBytes}` }] };
  const text = decodeUtf8(input);
  if (text === undefined) return { ok: false, problems: [{ message: 'the file is not UTF-8 text' }] };
  let value: unknown;
  try {
    // The turn's own files (state, events) in the layout the writer makes: a reader of that layout alone,
    // with js-yaml's value (yaml-read.ts); anything else, js-yaml.
    value = readOwnYaml(text)?.value ?? jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA });
  } catch (e) {
    if (input.byteLength <= STRICT_REREAD_BYTES || !(e instanceof jsyaml.YAMLException)) return readYaml(text, limits);
    const at = e.mark as { line?: number; column?: number } | undefined;
    const line = at?.line !== undefined ? at.line + 1 : undefined;
    // js-yaml reports where it noticed the problem, which can be a line after its cause.
    const where = at?.column !== undefined ? ` (noticed at column ${at.column + 1}; the cause may be just above)` : '';
    return { ok: false, problems: [{ ...(line !== undefined ? { line } : {}), message: `${e.reason ?? e.message}${where}` }] };
  }
  let strict: YamlRead | undefined;
  const locate: Locate = (path) => {
    // js-yaml has read the file, and it refuses duplicate keys: the strict reader need not look
    // for them again, which it does by comparing each key with every earlier key of its map
    // (four minutes for a state's 100,000 units, to find the line of one misspelt value).
    strict ??= readYaml(text, limits, { uniqueKeys: false });
    return strict.ok ? strict.locate(path) : undefined;
  };
  return { ok: true, value, locate };
}

/**
 * Stable YAML output: keys in the order given (callers sort them), no
 * anchors, no line folding. Strings that would read back as another type
 * are quoted, so what is written reads back the same with either parser.
 * The writer (yaml-write.ts) gives js-yaml's bytes, faster.
 */
export { writeYaml } from './yaml-write.js';
