/**
 * The characters no name or player text may hold, wherever it comes from (an
 * order sheet, a mail, campaign.yaml): they move a terminal's cursor or
 * colour (C0 and C1 controls: ESC starts the escapes), break a report into
 * fake lines (line and paragraph separators), reverse or hide what is read
 * (bidi overrides and isolates, zero-width and other invisible format
 * characters), or make an XML file unparseable (controls, lone surrogates,
 * noncharacters). Zero-width joiner and non-joiner are let through: Persian,
 * the Indic scripts and emoji need them, and they reorder nothing.
 *
 * A one-line field (every name, every order field) refuses line breaks and
 * tabs too; a note to the GM may span lines (a YAML `note: |` block), so line
 * feeds and tabs are allowed there and nothing else.
 */
export type TextShape = 'line' | 'lines';

const UNSAFE_IN_LINE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]|(?![\u200c\u200d])\p{Cf}/u;
const UNSAFE_IN_LINES = /(?![\n\t])[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]|(?![\u200c\u200d])\p{Cf}/u;
/** Global forms, for replacing every one (see text/escape.ts). */
export const UNSAFE_CHARS = new RegExp(UNSAFE_IN_LINE.source, 'gu');

export interface UnsafeCharacter {
  /** Index of the character in the text (UTF-16 units). */
  index: number;
  /** "U+001B (escape)": the code point and what it is, for a refusal a player can act on. */
  label: string;
}

export function unsafeCharacter(text: string, shape: TextShape = 'line'): UnsafeCharacter | undefined {
  const m = (shape === 'line' ? UNSAFE_IN_LINE : UNSAFE_IN_LINES).exec(text);
  if (!m) return undefined;
  const cp = m[0].codePointAt(0) ?? 0;
  return { index: m.index, label: `U+${cp.toString(16).toUpperCase().padStart(4, '0')} (${kindOf(cp)})` };
}

const NAMED: Record<number, string> = {
  0x09: 'a tab',
  0x0a: 'a line break',
  0x0b: 'a line break',
  0x0c: 'a page break',
  0x0d: 'a line break',
  0x1b: 'escape, which starts terminal codes',
  0x85: 'a line break',
  0x2028: 'a line break',
  0x2029: 'a paragraph break',
  0x00ad: 'an invisible soft hyphen',
  0xfeff: 'an invisible byte-order mark',
};

function kindOf(cp: number): string {
  const named = NAMED[cp];
  if (named) return named;
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x061c) return 'a direction override, which reorders the text shown';
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 'a control character';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'half of a character';
  if (/\p{Cf}/u.test(String.fromCodePoint(cp))) return 'an invisible formatting character';
  return 'not a character';
}
