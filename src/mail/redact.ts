/**
 * A secret taken out of a raw mail, wherever the mail carries it: in a header, in a text or HTML part in
 * whatever transfer encoding (7bit, 8bit, quoted-printable, base64), in an attachment, in a mail forwarded
 * inside it. The MIME structure is walked and each leaf part decoded, the secret replaced, and the part
 * encoded again the same way; a part without the secret is left byte for byte, and so is everything around
 * the parts (headers, boundaries, preamble). Then the result is read back as a mail program would read it
 * (mailparser: subject, text, HTML, every attachment) and searched for the secret once more: `complete` is
 * false when it is still there (split by markup or across encoded words), and the caller must not publish the
 * bytes.
 */
import { simpleParser } from 'mailparser';
import { parseInbound } from './parse.js';

export interface Redacted {
  bytes: Buffer;
  /** The secret was found, and replaced, somewhere. */
  found: boolean;
  /** Nothing a mail program reads in the result shows the secret. */
  complete: boolean;
}

export async function redactSecret(raw: Buffer, secret: string, replacement: string): Promise<Redacted> {
  if (secret === '') return { bytes: raw, found: false, complete: true };
  const s = Buffer.from(secret, 'utf8');
  const r = Buffer.from(replacement, 'utf8');
  const bytes = redactEntity(raw, s, r, 0);
  return { bytes, found: !bytes.equals(raw), complete: !(await stillShows(bytes, secret)) };
}

const MAX_DEPTH = 20;

/** One MIME entity (a whole mail, or a part): its header as bytes, its body redacted as its type says. */
function redactEntity(entity: Buffer, secret: Buffer, replacement: Buffer, depth: number): Buffer {
  const split = headerEnd(entity);
  if (split === undefined || depth > MAX_DEPTH) return replaceAll(entity, secret, replacement);
  const head = entity.subarray(0, split.bodyAt);
  const body = entity.subarray(split.bodyAt);
  const headers = unfold(entity.subarray(0, split.headerLength).toString('latin1'));
  const type = (headers.get('content-type') ?? 'text/plain').toLowerCase();
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').trim().toLowerCase();
  const newHead = replaceAll(head, secret, replacement);
  const boundary = /^\s*multipart\//.test(type) ? boundaryOf(headers.get('content-type') ?? '') : undefined;
  let newBody: Buffer;
  if (boundary !== undefined && (encoding === '7bit' || encoding === '8bit' || encoding === 'binary')) newBody = redactMultipart(body, boundary, secret, replacement, depth);
  else if (/^\s*message\/rfc822/.test(type) && (encoding === '7bit' || encoding === '8bit' || encoding === 'binary')) newBody = redactEntity(body, secret, replacement, depth + 1);
  else if (encoding === 'base64') newBody = redactBase64(body, secret, replacement);
  else if (encoding === 'quoted-printable') newBody = redactQuotedPrintable(body, secret, replacement);
  else newBody = replaceAll(body, secret, replacement);
  return Buffer.concat([newHead, newBody]);
}

function headerEnd(entity: Buffer): { headerLength: number; bodyAt: number } | undefined {
  const crlf = entity.indexOf('\r\n\r\n');
  const lf = entity.indexOf('\n\n');
  if (crlf < 0 && lf < 0) return undefined;
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { headerLength: crlf, bodyAt: crlf + 4 };
  return { headerLength: lf, bodyAt: lf + 2 };
}

function unfold(head: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const m = /^([!-9;-~]+):\s*(.*)$/.exec(line);
    if (m && !out.has(m[1]!.toLowerCase())) out.set(m[1]!.toLowerCase(), m[2]!);
  }
  return out;
}

function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** The parts between `--boundary` lines redacted one by one; the lines themselves and what is outside kept. */
function redactMultipart(body: Buffer, boundary: string, secret: Buffer, replacement: Buffer, depth: number): Buffer {
  const text = body.toString('latin1');
  const delimiter = new RegExp(`(^|\\r?\\n)--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(--)?[ \\t]*(?=\\r?\\n|$)`, 'g');
  const pieces: Buffer[] = [];
  let last = 0;
  let inPart = false;
  for (const m of text.matchAll(delimiter)) {
    const at = m.index;
    pieces.push(...segmentRedacted(body.subarray(last, at), inPart, secret, replacement, depth));
    pieces.push(body.subarray(at, at + m[0].length));
    last = at + m[0].length;
    inPart = m[2] === undefined;
  }
  pieces.push(...segmentRedacted(body.subarray(last), inPart, secret, replacement, depth));
  return Buffer.concat(pieces);
}

/** What lies between two delimiter lines: a part (after the line break ending the delimiter line), or the preamble or epilogue. */
function segmentRedacted(segment: Buffer, inPart: boolean, secret: Buffer, replacement: Buffer, depth: number): Buffer[] {
  if (!inPart) return [replaceAll(segment, secret, replacement)];
  const eol = segment[0] === 0x0d && segment[1] === 0x0a ? 2 : segment[0] === 0x0a ? 1 : 0;
  return [segment.subarray(0, eol), redactEntity(segment.subarray(eol), secret, replacement, depth + 1)];
}

function replaceAll(bytes: Buffer, secret: Buffer, replacement: Buffer): Buffer {
  let at = bytes.indexOf(secret);
  if (at < 0) return bytes;
  const pieces: Buffer[] = [];
  let last = 0;
  while (at >= 0) {
    pieces.push(bytes.subarray(last, at), replacement);
    last = at + secret.length;
    at = bytes.indexOf(secret, last);
  }
  pieces.push(bytes.subarray(last));
  return Buffer.concat(pieces);
}

const eolOf = (body: Buffer) => (body.includes('\r\n') ? '\r\n' : '\n');

function redactBase64(body: Buffer, secret: Buffer, replacement: Buffer): Buffer {
  const decoded = Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  const replaced = replaceAll(decoded, secret, replacement);
  if (replaced === decoded) return body;
  const eol = eolOf(body);
  const lines = replaced.toString('base64').match(/.{1,76}/g) ?? [];
  return Buffer.from(`${lines.join(eol)}${eol}`, 'latin1');
}

function redactQuotedPrintable(body: Buffer, secret: Buffer, replacement: Buffer): Buffer {
  const decoded = decodeQuotedPrintable(body);
  const replaced = replaceAll(decoded, secret, replacement);
  if (replaced === decoded) return body;
  return encodeQuotedPrintable(replaced, eolOf(body));
}

function decodeQuotedPrintable(body: Buffer): Buffer {
  const text = body.toString('latin1').replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3d && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(c);
  }
  return Buffer.from(out);
}

/** Quoted-printable (RFC 2045 6.7): line breaks kept as they were, lines of at most 76 characters. */
function encodeQuotedPrintable(bytes: Buffer, eol: string): Buffer {
  const lines = bytes.toString('latin1').split(/\r?\n/);
  const out: string[] = [];
  for (const line of lines) {
    let encoded = '';
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      const atEnd = i === line.length - 1;
      const plain = (c >= 33 && c <= 126 && c !== 61) || ((c === 32 || c === 9) && !atEnd);
      encoded += plain ? line[i] : `=${c.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    let rest = encoded;
    while (rest.length > 76) {
      let cut = 75;
      // Never split an =XX escape.
      if (rest[cut - 1] === '=') cut -= 1;
      else if (rest[cut - 2] === '=') cut -= 2;
      out.push(`${rest.slice(0, cut)}=`);
      rest = rest.slice(cut);
    }
    out.push(rest);
  }
  return Buffer.from(out.join(eol), 'latin1');
}

/** Whether anything a mail program reads of the mail still shows the secret: as mailparser reads it, and as the orders reader does. */
async function stillShows(bytes: Buffer, secret: string): Promise<boolean> {
  if (bytes.includes(secret)) return true;
  try {
    const mail = await simpleParser(bytes, { skipImageLinks: true, skipTextToHtml: true });
    const ours = await parseInbound(bytes);
    const texts = [mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html.replace(/<[^>]*>/g, '') : '', ...mail.attachments.map((a) => a.content.toString('utf8')), ours.text, ...ours.attachments.map((a) => a.content.toString('utf8'))];
    return texts.some((t) => t.includes(secret));
  } catch {
    return true;
  }
}
