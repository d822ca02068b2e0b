import { UNSAFE_CHARS } from './unsafe-text.js';

/**
 * Text into each output format, in one place. Names and notes are refused at
 * the edge when they hold unsafe characters (text/unsafe-text.ts), but a
 * hand-edited state.yaml, an old turn or a GM's file can still carry them, so
 * every output also makes them harmless:
 *
 *  - plain text (text reports, receipts, mail bodies): a line break inside a
 *    value shows as " ↵ " (one at either end is dropped), a tab as a space,
 *    any other unsafe character as U+FFFD, so a name can neither draw a fake
 *    line nor send a terminal code;
 *  - HTML and SVG/XML: the plain-text form with & < > " ' as entities, so the
 *    result is legal XML 1.0 (which has no way to write ESC at all, escaped
 *    or not);
 *  - mail headers: the plain-text form with line breaks as spaces (the mail
 *    library encodes what is left);
 *  - YAML: js-yaml writes any such character as a double-quoted escape, so the
 *    YAML report is taken from the same printable view as the others.
 *
 * Ordinary text has nothing to replace and comes back as the same string.
 */
const UNSAFE = new RegExp(UNSAFE_CHARS.source, 'u');
/** Printable ASCII: most strings, and a far cheaper test than the Unicode one. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;
const isPlain = (text: string) => PLAIN_ASCII.test(text) || !UNSAFE.test(text);
const UNSAFE_IN_LINES = new RegExp(`(?![\\n\\t])(?:${UNSAFE_CHARS.source})`, 'u');
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
const BREAK = /[\n\r\v\f\u2028\u2029]/;

/** The form of a value in plain text: one line, nothing a terminal acts on. */
export function plainText(text: string): string {
  if (isPlain(text)) return text;
  // A GM's text written as a YAML block ends in a line break: that one is no break inside the value.
  return dropEdgeBreaks(text).replace(LINE_BREAK, ' ↵ ').replace(/\t/g, ' ').replace(UNSAFE_CHARS, '\ufffd');
}

/** The white space at either end, when it holds a line break (trims are linear; a regex here could backtrack). */
function dropEdgeBreaks(text: string): string {
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  if (end <= start) return BREAK.test(text) ? '' : text;
  return text.slice(BREAK.test(text.slice(0, start)) ? start : 0, BREAK.test(text.slice(end)) ? end : text.length);
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const XML_SPECIAL = /[&<>"']/;

/** A text of several lines (a mail body): each line in plain-text form, the line feeds (and tabs, if nothing else is wrong) kept. */
export function plainLines(text: string): string {
  if (!UNSAFE_IN_LINES.test(text)) return text;
  return text.split(/\r?\n/).map(plainText).join('\n');
}

/** Text for an XML or HTML text node or attribute value. */
export function escapeXml(text: string): string {
  const plain = plainText(text);
  // Nearly every label has nothing to escape: one test instead of a replace with a callback.
  return XML_SPECIAL.test(plain) ? plain.replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c) : plain;
}

/** Text for a mail header (a subject built from names, or a sender's subject echoed): one line. */
export function headerText(text: string): string {
  if (isPlain(text)) return text;
  return plainText(text.replace(LINE_BREAK, ' ').replace(/\t/g, ' ')).replace(/ {2,}/g, ' ');
}

/**
 * A view with every string in plain-text form, for the templates and the map:
 * the text templates print values as they are and Handlebars' HTML escaping
 * knows only markup. Objects and arrays are copied only where a string in
 * them changes, so an ordinary view comes back as itself.
 */
export function printable<T>(value: T): T {
  return printableValue(value) as T;
}

function printableValue(value: unknown): unknown {
  if (typeof value === 'string') return plainText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const clean = printableValue(item);
      if (clean !== item) (copy ??= value.slice())[i] = clean;
    }
    return copy ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    const clean = printableValue(item);
    // Keys are ids and field names nearly always: printable ASCII, one cheap test.
    const cleanKey = PLAIN_ASCII.test(key) ? key : plainText(key);
    if (clean !== item || cleanKey !== key) {
      copy ??= { ...record };
      if (cleanKey !== key) delete copy[key];
      copy[cleanKey] = clean;
    }
  }
  return copy ?? value;
}
