import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { PLAYER_LIMITS, readYaml, type YamlProblem } from '../campaign/yaml-io.js';
import type { RefusedLine } from '../core/orders.js';
import { ORDER_KEYS } from './interpret.js';
import type { LaidItem, YamlLayout } from './yaml-sheet.js';

/**
 * An order file the YAML reader refused, read again piece by piece so that a
 * slip costs only the order it is in. A player's YAML goes wrong in a few
 * ways (an order indented one space off, a key under an order out of line, a
 * tab, a colon left out); the parser's own words for them ("Implicit map keys
 * need to be followed by map values") mean nothing to a player. So:
 *
 *   - the top-level entries (nation:, turn:, token:, casualties:, orders:)
 *     are read one by one, so a good Turn line is found beside a broken one;
 *   - the orders list is cut into its items at each "- " that starts an order
 *     and each item is read alone: the good ones stand;
 *   - the item or entry the slip is in is refused, at the line of the slip,
 *     with what it is in a player's words and what to write instead.
 *
 * Only syntax slips are read this way: anchors, tags and several documents
 * are refusals of the whole file (yaml-sheet.ts).
 */
export interface Salvaged {
  top: Record<string, unknown>;
  layout: YamlLayout;
  problems: RefusedLine[];
}

/** Problems that refuse the file whole, whatever else is in it. */
const WHOLE_FILE_REFUSAL = /^(?:anchors and aliases|anchor &|unknown tag)|multiple documents|must be unique/i;

export function canSalvage(problems: readonly YamlProblem[]): boolean {
  return problems.length > 0 && !problems.some((p) => WHOLE_FILE_REFUSAL.test(p.message));
}

/** Every word a line of an order file starts with: headers, order kinds and their keys. */
const KNOWN_KEYS = new Set(['nation', 'turn', 'token', 'casualties', 'orders', ...Object.keys(ORDER_KEYS), ...Object.values(ORDER_KEYS).flat()]);
const ORDER_WORDS = new Set(Object.keys(ORDER_KEYS));

interface SourceLine {
  text: string;
  start: number;
  /** Columns of leading blanks, spaces and tabs alike. */
  indent: number;
  /** Blank or only a comment. */
  empty: boolean;
}

export function salvageYaml(source: string, parserProblems: readonly YamlProblem[]): Salvaged {
  const lines = splitLines(source);
  const entries = topEntries(lines);
  const reported = parserProblems.find((p) => p.line !== undefined)?.line;
  // Where the parser stopped at a header set a space off column 0, that header is the slip, and it reads alone.
  const explained = reported !== undefined && entries.some(([s]) => lines[s]!.indent > 0 && reported <= s + 2 && lines.slice(reported - 1, s).every((l) => l.empty));
  const firstError = explained ? undefined : reported;
  const top: Record<string, unknown> = {};
  const lineOfKey = new Map<string, number>();
  const itemsOfKey = new Map<string, LaidItem[]>();
  const items: unknown[] = [];
  const problems: RefusedLine[] = [];

  for (const [s, e] of entries) {
    const first = lines[s]!.text;
    const key = /^ *([A-Za-z][\w-]*)\s*:(?:\s|$)/.exec(first)?.[1];
    const rest = key !== undefined ? first.slice(first.indexOf(':') + 1).replace(/(?:^|\s)#.*$/, '').trim() : '';
    if (key !== undefined && key.toLowerCase() === 'orders' && rest === '') {
      const laid: LaidItem[] = [];
      for (const chunk of orderChunks(lines, s + 1, e)) {
        const read = chunk.start ? readChunk(lines, chunk) : undefined;
        const slipped = firstError !== undefined && firstError > chunk.from && firstError <= chunk.to;
        if (read?.ok && !slipped) {
          items.push(read.value);
          const head = lines[chunk.from]!;
          laid.push({ line: chunk.from + 1, range: [head.start + /^[ \t]*-[ \t]*/.exec(head.text)![0].length, endOf(lines, chunk)], shape: read.shape });
        } else {
          problems.push(slipIn(lines, chunk.from, chunk.to, { firstIndent: chunk.firstIndent, errorLine: slipped ? firstError : read && !read.ok ? read.errorLine : undefined }));
        }
      }
      top[key] = items;
      lineOfKey.set(key, laid[0]?.line ?? s + 1);
      itemsOfKey.set(key, laid);
      continue;
    }
    const text = lines
      .slice(s, e)
      .map((l) => l.text)
      .join('\n');
    const read = readYaml(text, PLAYER_LIMITS);
    const slipped = firstError !== undefined && firstError > s && firstError <= e;
    if (!slipped && read.ok && isMap(read.doc.contents) && read.doc.contents.items.length === 1 && key !== undefined) {
      top[key] = (read.value as Record<string, unknown>)[key];
      lineOfKey.set(key, s + (read.locate([key]) ?? 1));
      continue;
    }
    const errorLine = slipped ? firstError : read.ok ? s + 1 : s + (read.problems[0]?.line ?? 1);
    problems.push(slipIn(lines, s, e, { errorLine }));
  }
  return { top, layout: { lineOf: (k) => lineOfKey.get(k), itemsOf: (k) => itemsOfKey.get(k) }, problems };
}

function splitLines(source: string): SourceLine[] {
  const out: SourceLine[] = [];
  const re = /\r\n|\r|\n/g;
  let start = 0;
  for (;;) {
    const m = re.exec(source);
    const end = m ? m.index : source.length;
    const text = source.slice(start, end);
    const indent = /^[ \t]*/.exec(text)![0].length;
    out.push({ text, start, indent, empty: indent === text.length || text[indent] === '#' });
    if (!m) break;
    start = m.index + m[0].length;
  }
  return out;
}

/**
 * [start, end) of each top-level entry: from a line at column 0 to the next one. A header or the
 * orders key a space or three off column 0 (" orders:") starts one too: no order has those keys,
 * and reading it where it stands saves every order below it.
 */
function topEntries(lines: readonly SourceLine[]): [number, number][] {
  const starts: number[] = [];
  lines.forEach((l, i) => {
    if (l.empty || isOrderStart(l) || /^(?:---|\.\.\.)\s*$/.test(l.text)) return;
    if (l.indent === 0 || (l.indent <= 3 && /^ +(?:nation|turn|token|orders)\s*:/i.test(l.text))) starts.push(i);
  });
  return starts.map((s, k) => [s, starts[k + 1] ?? lines.length]);
}

const isDash = (l: SourceLine) => /^[ \t]*-(?:[ \t]|$)/.test(l.text);
/** "-{move: …}": a flow order whose "-" lacks its space, which YAML does not read as a list item. */
const isGluedDash = (l: SourceLine) => /^[ \t]*-\{/.test(l.text);
const isOrderStart = (l: SourceLine) => isDash(l) || isGluedDash(l);

interface Chunk {
  /** 0-based first line and end (exclusive). */
  from: number;
  to: number;
  /** Starts with the "- " of an order; false: lines before the first order. */
  start: boolean;
  /** Column of the first order's "-" in the list. */
  firstIndent: number;
}

/**
 * The orders list cut into its items. An item starts at a "- " in the
 * column of the first one, or at a "- " that starts an order ("- move: …")
 * anywhere but under a key waiting for its list ("carry:").
 */
function orderChunks(lines: readonly SourceLine[], from: number, to: number): Chunk[] {
  const chunks: Chunk[] = [];
  let firstIndent: number | undefined;
  let previous: SourceLine | undefined;
  let open: Chunk | undefined;
  for (let i = from; i < to; i++) {
    const l = lines[i]!;
    if (l.empty) continue;
    const starts = isOrderStart(l) && (firstIndent === undefined || l.indent === firstIndent || (startsOrder(l.text) && !(previous && waitsForList(previous.text))));
    if (starts || !open) {
      if (open) open.to = i;
      if (starts) firstIndent ??= l.indent;
      open = { from: i, to, start: starts, firstIndent: firstIndent ?? l.indent };
      chunks.push(open);
    }
    previous = l;
  }
  if (open) open.to = lastContent(lines, open.from, to) + 1;
  for (let k = 0; k + 1 < chunks.length; k++) chunks[k]!.to = lastContent(lines, chunks[k]!.from, chunks[k + 1]!.from) + 1;
  return chunks;
}

function lastContent(lines: readonly SourceLine[], from: number, to: number): number {
  let last = from;
  for (let i = from; i < to; i++) if (!lines[i]!.empty) last = i;
  return last;
}

/** "- move: …", "- move Iron Guard …", or a flow order "- {move: …}" (its "-" glued to the brace or not). */
function startsOrder(text: string): boolean {
  const word = (/^[ \t]*-[ \t]+([A-Za-z]+)\s*(?::|\s|$)/.exec(text) ?? /^[ \t]*-[ \t]*\{[ \t]*([A-Za-z]+)[ \t]*:/.exec(text))?.[1]?.toLowerCase();
  return word !== undefined && ORDER_WORDS.has(word);
}

/** "carry:" with nothing after it: a list may follow, at any indentation. */
const waitsForList = (text: string) => /:\s*(?:#.*)?$/.test(text);

function endOf(lines: readonly SourceLine[], chunk: Chunk): number {
  const last = lines[chunk.to - 1]!;
  return last.start + last.text.length;
}

/** The chunk alone, its "-" moved to column 0: one list item, or where it stops reading. */
function readChunk(lines: readonly SourceLine[], chunk: Chunk): { ok: true; value: unknown; shape: LaidItem['shape'] } | { ok: false; errorLine: number } {
  const read = readYaml(chunkText(lines, chunk), PLAYER_LIMITS);
  if (!read.ok) return { ok: false, errorLine: chunk.from + (read.problems[0]?.line ?? 1) };
  if (!isSeq(read.doc.contents) || read.doc.contents.items.length !== 1) return { ok: false, errorLine: chunk.from + 1 };
  const node = read.doc.contents.items[0] as Node | null;
  return { ok: true, value: (read.value as unknown[])[0], shape: isScalar(node) ? 'scalar' : isMap(node) ? 'map' : 'other' };
}

function chunkText(lines: readonly SourceLine[], chunk: Chunk): string {
  const cut = lines[chunk.from]!.indent;
  return lines
    .slice(chunk.from, chunk.to)
    .map((l) => {
      const spaces = /^ */.exec(l.text)![0].length;
      return l.text.slice(Math.min(cut, spaces));
    })
    .join('\n');
}

/**
 * What went wrong in lines [from, to), in a player's words, at its line.
 * Looked for in the order a player makes them: a tab, an order out of line
 * with the ones above, a key out of line with its order, a colon left out, a
 * quote or bracket left open. `errorLine` (1-based) is where the parser
 * stopped, for what none of these explains.
 */
function slipIn(lines: readonly SourceLine[], from: number, to: number, at: { firstIndent?: number; errorLine?: number | undefined }): RefusedLine {
  const problem = (i: number, reason: string, hint: string): RefusedLine => ({ line: i + 1, text: clip(lines[i]!.text.trim()), reason, hint });
  const content: number[] = [];
  for (let i = from; i < to; i++) if (!lines[i]!.empty) content.push(i);

  const tab = content.find((i) => /^ *\t/.test(lines[i]!.text));
  if (tab !== undefined) return problem(tab, 'this line is indented with a tab; YAML indents with spaces only', 'replace the tab with spaces, so that the line starts in the same column as the lines it belongs with');

  const head = lines[from]!;
  if (isGluedDash(head)) return problem(from, 'there is no space after the "-" that starts this order, so YAML does not read it as one', 'write "- {" with a space between the "-" and the "{"');
  if (isDash(head) && at.firstIndent !== undefined && head.indent !== at.firstIndent) {
    const more = head.indent > at.firstIndent ? 'more' : 'less';
    return problem(from, `this order is indented ${more} than the orders above it (its "-" is in column ${head.indent + 1}, theirs in column ${at.firstIndent + 1})`, 'every order in the list starts at the same column: put its "-" under the "-" of the order above');
  }

  const dashed = /^[ \t]*-[ \t]+(?=[^\s#])/.exec(head.text);
  if (dashed) {
    const keyColumn = dashed[0].length;
    const firstKey = /^[ \t]*-[ \t]+([^:\s]+)/.exec(head.text)?.[1] ?? 'the first key';
    let inList: number | undefined;
    for (const i of content.slice(1)) {
      const l = lines[i]!;
      if (inList !== undefined && isDash(l) && l.indent >= inList) continue;
      inList = undefined;
      if (l.indent !== keyColumn) {
        const more = l.indent > keyColumn ? 'more' : 'less';
        const word = /^\s*([^:\s]+)/.exec(l.text)?.[1] ?? '';
        return problem(
          i,
          `"${word}" is indented ${more} than "${firstKey}" on line ${from + 1}, so it does not read as part of that order`,
          `the parts of one order line up under each other: start "${word}" in column ${keyColumn + 1}, under "${firstKey}"`,
        );
      }
      if (waitsForList(l.text)) inList = keyColumn;
    }
  }

  for (const i of [...content.slice(1), content[0]!]) {
    const body = lines[i]!.text.replace(/^[ \t]*(?:-[ \t]+)?/, '').replace(/\s+#.*$/, '');
    const m = /^([A-Za-z]+)(?:[ \t]+(\S.*))?$/.exec(body);
    const word = m?.[1]?.toLowerCase();
    if (!m || !word || !KNOWN_KEYS.has(word)) continue;
    // "- move Iron Guard" alone is a one-line text order; with keys below it, it lacks its colon. So does "orders" above a list.
    const below = i !== content[content.length - 1];
    if (m[2] === undefined ? below : !/^\S*:/.test(m[2]) && (i !== from || below || !isDash(head))) {
      return problem(i, `there is no colon after "${m[1]}"`, `write "${m[1]}:${m[2] !== undefined ? ` ${m[2]}` : ''}"`);
    }
  }

  for (const i of content) {
    const unclosed = openBracket(lines[i]!.text);
    if (unclosed) return problem(i, `a ${unclosed} is opened on this line and not closed`, 'close it on the same line, or leave it out');
  }

  const line = Math.min(Math.max((at.errorLine ?? from + 1) - 1, from), to - 1);
  return problem(line, 'this line does not fit the layout of an order sheet, so the order it is part of was not read', 'an order is "- move: Iron Guard" with "to: 12,7" on the next line under "move", or one text order like "- rest Iron Guard"');
}

/** The first quote or bracket a line leaves open, outside a comment. */
function openBracket(text: string): string | undefined {
  const stack: string[] = [];
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]!))) break;
    // A quote opens a quoted value only at its start, not inside a word ("Duke's Lancers").
    if ((ch === '"' || ch === "'") && (i === 0 || /[\s\-:[{,]/.test(text[i - 1]!))) quote = ch;
    else if (ch === '[' || ch === '{') stack.push(ch);
    else if (ch === ']' || ch === '}') stack.pop();
  }
  if (quote) return quote === '"' ? 'double quote (")' : "single quote (')";
  const last = stack[stack.length - 1];
  return last === '[' ? '"["' : last === '{' ? '"{"' : undefined;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
