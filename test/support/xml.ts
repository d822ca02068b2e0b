import { XMLValidator } from 'fast-xml-parser';

/**
 * Why an XML document does not parse, or undefined when it does. The
 * structure (tags, attributes, entities) is checked by fast-xml-parser's
 * validator (in the dependency tree through mailauth), which does not check
 * XML 1.0's Char production, so that is checked here: no C0 control but tab
 * and line ends, no lone surrogate, no U+FFFE/U+FFFF, written or as a
 * character reference. Browsers refuse an SVG file for either.
 */
export function xmlProblem(xml: string): string | undefined {
  const raw = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u.exec(xml);
  if (raw) return `character U+${raw[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at offset ${raw.index}`;
  for (const m of xml.matchAll(/&#(x[0-9a-fA-F]+|[0-9]+);/g)) {
    const cp = m[1]!.startsWith('x') ? parseInt(m[1]!.slice(1), 16) : Number(m[1]);
    const legal = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
    if (!legal) return `character reference ${m[0]} at offset ${m.index}`;
  }
  const result = XMLValidator.validate(xml);
  return result === true ? undefined : `${result.err.msg} (line ${result.err.line}, column ${result.err.col})`;
}
