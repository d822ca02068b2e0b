import { decodeOrderText } from './input.js';
import { WHOLE_FILE, type OrderSheet, type SheetHeader } from './sheet.js';
import { parseOrderLine } from './text-line.js';
import { readYamlSheet } from './yaml-sheet.js';

/**
 * Reads orders written in a mail body (or a .txt file): one order per line,
 * in the grammar of text-line.ts, with header lines (Nation:, Turn:, Token:,
 * Casualties:). What is not orders is left out, line numbers unchanged:
 *
 *   - `#` comments, blank lines, a greeting on the first line ("Hi GM,");
 *   - quoted reply lines (`>`) and the "On <date>, <someone> wrote:" line;
 *   - everything from a signature separator (`-- `), a closing on its own
 *     line ("Thanks", "Cheers,", "Regards"), "Sent from my ...", or a
 *     forwarded/original-message marker.
 *
 * A YAML order sheet pasted into the body (a line `orders:` followed by a
 * `- ` list) is read as YAML, so both formats are accepted in mail.
 * Never throws.
 */
export function readTextSheet(body: string | Uint8Array): OrderSheet {
  const decoded = decodeOrderText(body);
  if (!decoded.ok) return { entries: [], problems: [decoded.problem], headerLines: {}, format: 'text' };
  const lines = decoded.text.split(/\r\n|\r|\n/);
  const kept = keptLines(lines);
  const yamlStart = pastedYaml(kept);
  if (yamlStart !== undefined) {
    const block = kept.map((l, i) => (i < yamlStart ? '' : l)).join('\n');
    return readYamlSheet(block);
  }
  return readTextLines(kept);
}

/** Stop reading after this many problems: a file of garbage gets a short receipt. */
export const MAX_READ_PROBLEMS = 100;
/** A line longer than this is not an order. */
export const MAX_LINE_LENGTH = 1000;

function readTextLines(lines: readonly string[]): OrderSheet {
  const sheet: OrderSheet = { entries: [], problems: [], headerLines: {}, format: 'text' };
  let greeted = false;
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const original = lines[i] as string;
    const content = stripComment(original).trim();
    if (!content) continue;
    const text = clipLine(original.trim());
    if (sheet.problems.length >= MAX_READ_PROBLEMS) {
      sheet.problems.push({ line, text: WHOLE_FILE, reason: `stopped reading at line ${line} after ${MAX_READ_PROBLEMS} problems`, hint: 'fix the lines above and send the orders again' });
      break;
    }
    if (!greeted) {
      greeted = true;
      if (GREETING.test(content) && content.split(/\s+/).length <= 8) continue;
    }
    if (content.length > MAX_LINE_LENGTH) {
      sheet.problems.push({ line, text, reason: `the line is ${content.length} characters long; an order fits in ${MAX_LINE_LENGTH}` });
      continue;
    }
    if (content.includes('\ufffd')) {
      sheet.problems.push({ line, text, reason: 'the line has characters that could not be read (�)', hint: 'send the orders as UTF-8 plain text' });
      continue;
    }
    const result = parseOrderLine(content);
    switch (result.kind) {
      case 'skip':
        break;
      case 'order':
        sheet.entries.push({ line, text, fields: result.fields });
        break;
      case 'problem': {
        const opening = sheet.entries.length === 0 && sheet.problems.length === 0 && Object.keys(sheet.headerLines ?? {}).length === 0;
        sheet.problems.push({ line, text, reason: result.reason, ...(result.hint ? { hint: result.hint } : {}), ...(result.unknownVerb ? { unknownVerb: result.unknownVerb, ...(opening ? { opening: true as const } : {}) } : {}) });
        break;
      }
      case 'header':
        setHeader(sheet, result.header, result.value, line, text);
        break;
    }
  }
  return sheet;
}

function setHeader(sheet: OrderSheet, header: SheetHeader, value: string | string[], line: number, text: string): void {
  const lines = (sheet.headerLines ??= {});
  const earlier = lines[header];
  if (earlier !== undefined) {
    sheet.problems.push({ line, text, reason: `${header} is already given on line ${earlier}`, hint: 'give each of nation, turn, token and casualties once' });
    return;
  }
  lines[header] = line;
  if (header === 'casualties') sheet.casualties = Array.isArray(value) ? value : [value];
  else if (header === 'turn') sheet.turn = Number(value);
  else if (header === 'nation') sheet.nation = String(value).trim().toLowerCase();
  else sheet.token = String(value).trim();
}

const GREETING = /^(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening)|hail|salutations)\b/i;
const CLOSING = /^(?:thanks|thank you|many thanks|cheers|regards|best|best regards|kind regards|warm regards|yours(?: truly| sincerely| faithfully)?|sincerely)\b[\s,.!]*$/i;
const CUT = /^(?:--\s*|-{3,}\s*(?:original|forwarded) message\s*-{3,}|_{10,}|sent from my .*|begin forwarded message:?)$/i;
const WROTE = /\bwrote:\s*$/i;

/**
 * Blanks what is not orders, keeping line numbers: quoted replies, the
 * "On ... wrote:" line (also when wrapped over two or three lines), and
 * everything from a signature, closing or forwarded-message marker on.
 * Code fences (```) around pasted orders are blanked too.
 */
function keptLines(lines: readonly string[]): string[] {
  const kept = [...lines];
  let content = false;
  for (let i = 0; i < kept.length; i++) {
    const line = kept[i] as string;
    const t = line.trim();
    // A closing ("Thanks,") ends the orders only after some: "Thanks!" above them is just manners.
    if (CUT.test(t) || (content && CLOSING.test(t))) {
      for (let k = i; k < kept.length; k++) kept[k] = '';
      break;
    }
    if (/^\s*>/.test(line) || /^```/.test(t)) {
      kept[i] = '';
      continue;
    }
    if (/^on\s/i.test(t)) {
      const end = [0, 1, 2].find((k) => WROTE.test((kept[i + k] ?? '').trim()));
      if (end !== undefined) {
        for (let k = 0; k <= end; k++) kept[i + k] = '';
        i += end;
        continue;
      }
    }
    if (t && !t.startsWith('#') && !GREETING.test(t)) content = true;
  }
  return kept;
}

const YAML_HEADER = /^(?:nation|turn|token|casualties|orders)\s*:/i;

/**
 * Where a pasted YAML sheet starts, if the body holds one: it has a line
 * "orders:" followed by "- " items (or "orders: [...]"), and starts at the
 * first top-level header key before it. Text before it is left out.
 */
function pastedYaml(lines: readonly string[]): number | undefined {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const flow = /^orders\s*:\s*\[/i.test(line);
    let block = false;
    if (/^orders\s*:\s*(?:#.*)?$/i.test(line)) {
      // A list of maps ("- move: Iron Guard"); a list of one-line orders ("- move Iron Guard to 6,5") reads as text.
      const rest = lines.slice(i + 1);
      // The order sheet the reports carry has comment lines (its sections, each unit's options) before any order.
      const next = rest.find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
      block = next !== undefined && /^\s*-(?:\s|$)/.test(next) && rest.some((l) => /^\s*-\s+[^\s:#"'][^:#]*:(?:\s|$)/.test(l));
    }
    if (!flow && !block) continue;
    let start = i;
    for (let k = i - 1; k >= 0; k--) {
      const l = lines[k] as string;
      if (YAML_HEADER.test(l)) start = k;
      else if (l.trim() !== '' && !l.trim().startsWith('#')) break;
    }
    return start;
  }
  return undefined;
}

/** `#` starts a comment at the start of a line or after a space, outside double quotes. */
export function stripComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === '#' && !quoted && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return line.slice(0, i);
  }
  return line;
}

function clipLine(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
