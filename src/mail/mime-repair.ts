/**
 * Second chances for messages whose MIME structure or charset mailparser cannot use as sent.
 *
 * - A message that declares multipart/* but whose body has no line with its boundary (no boundary at all,
 *   or the parts written with another one): mailparser finds no part and yields no text. The body is read
 *   again, either with the boundary its lines do use, or as one text/plain part.
 * - UTF-7 (RFC 2152), a registered charset some Exchange servers and old clients still send: libmime
 *   refuses it on purpose (it can hide markup from HTML filters; we never render mail, we read orders) and
 *   returns the encoded form. Valid UTF-7 is plain ASCII, so that text is exactly the encoded text, and
 *   iconv-lite (the charset library mailparser itself uses) decodes it.
 *
 * Both only rewrite the header block and hand the message back to mailparser, which still does all the
 * decoding (transfer encodings, charsets, format=flowed).
 */
import iconv from 'iconv-lite';

const SCAN_LIMIT = 1024 * 1024;

/** Header block and body of a raw message, split at the first empty line. */
function split(raw: Buffer): { head: string; body: Buffer } {
  const text = raw.subarray(0, Math.min(raw.length, SCAN_LIMIT)).toString('latin1');
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) return { head: text, body: Buffer.alloc(0) };
  return { head: text.slice(0, match.index), body: raw.subarray(match.index + match[0].length) };
}

/** The top-level Content-Type field (unfolded), or undefined. */
function topContentType(head: string): string | undefined {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return /^content-type[ \t]*:(.*)$/im.exec(unfolded)?.[1]?.trim();
}

function param(value: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^\\s;]+))`, 'i').exec(value);
  return match?.[1] ?? match?.[2];
}

/** The header block with its top-level Content-Type field replaced (folded continuation lines included). */
function withContentType(head: string, value: string): string {
  const lines = head.split(/\r?\n/);
  const out: string[] = [];
  let dropping = false;
  for (const line of lines) {
    if (/^[ \t]/.test(line) && dropping) continue;
    dropping = /^content-type[ \t]*:/i.test(line);
    if (!dropping) out.push(line);
  }
  out.push(`Content-Type: ${value}`);
  return out.join('\r\n');
}

/**
 * A multipart message whose body never uses its declared boundary, rewritten so mailparser can read it:
 * with the boundary its lines do use, or as a single text/plain part. Undefined when the message is not
 * such a message.
 */
export function repairMultipart(raw: Buffer): Buffer | undefined {
  const { head, body } = split(raw);
  const type = topContentType(head);
  if (type === undefined || !/^multipart\//i.test(type)) return undefined;
  const lines = body.subarray(0, SCAN_LIMIT).toString('latin1').split(/\r?\n/);
  const declared = param(type, 'boundary');
  if (declared !== undefined && declared !== '' && lines.some((l) => l.trimEnd() === `--${declared}`)) return undefined;
  // Parts written with another boundary: a "--X" line that comes back as "--X" or "--X--" further down.
  for (let i = 0; i < lines.length; i++) {
    const candidate = /^--([0-9A-Za-z'()+_,./:=?-]{6,70})$/.exec(lines[i]!.trimEnd())?.[1];
    if (candidate === undefined || candidate.endsWith('--')) continue;
    if (lines.slice(i + 1).some((l) => l.trimEnd() === `--${candidate}` || l.trimEnd() === `--${candidate}--`)) {
      const subtype = /^multipart\/([a-z-]+)/i.exec(type)?.[1] ?? 'mixed';
      return Buffer.concat([Buffer.from(`${withContentType(head, `multipart/${subtype}; boundary="${candidate}"`)}\r\n\r\n`, 'latin1'), body]);
    }
  }
  // No parts at all: the body is the text. Its charset, if the header gave one, still applies.
  const charset = param(type, 'charset') ?? 'utf-8';
  return Buffer.concat([Buffer.from(`${withContentType(head, `text/plain; charset="${charset}"`)}\r\n\r\n`, 'latin1'), body]);
}

const UTF7 = /^(?:cs)?(?:unicode-1-1-)?utf-?7$|^x-unicode20utf7$/i;

/** Every charset declared for text parts of this subtype (plain, html) in the message, lower case. */
function declaredCharsets(raw: Buffer, subtype: 'plain' | 'html'): string[] {
  const text = raw.subarray(0, Math.min(raw.length, SCAN_LIMIT)).toString('latin1').replace(/\r?\n[ \t]+/g, ' ');
  const found: string[] = [];
  for (const match of text.matchAll(/^content-type[ \t]*:[ \t]*text\/([a-z]+)([^\r\n]*)/gim)) {
    if (match[1]!.toLowerCase() !== subtype) continue;
    found.push((param(match[2] ?? '', 'charset') ?? 'us-ascii').toLowerCase());
  }
  return found;
}

/**
 * The text mailparser gave for a message whose every text part of that subtype is declared UTF-7, decoded;
 * otherwise the text unchanged. A text with non-ASCII characters was not valid UTF-7 and is left as it is.
 */
export function decodeUtf7Text(raw: Buffer, subtype: 'plain' | 'html', text: string): string {
  const charsets = declaredCharsets(raw, subtype);
  if (charsets.length === 0 || !charsets.every((c) => UTF7.test(c))) return text;
  if (/[^\x00-\x7f]/.test(text)) return text;
  return iconv.decode(Buffer.from(text, 'ascii'), 'utf7');
}
