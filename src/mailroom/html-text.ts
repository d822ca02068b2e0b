/**
 * HTML-only mail as order text. mailparser converts HTML with html-to-text's defaults, which wrap lines at
 * 80 characters: a long order written on one line in a webmail editor comes out as two lines, the second
 * a "problem". So for a message with no text/plain part the mailroom converts the HTML itself, one line per
 * block, never wrapping; quoted blocks (<blockquote>, Apple Mail's type=cite) get "> " marks so the order
 * reader leaves them out. What mail programs add that is not the writer's own text is dropped: the quote and
 * signature blocks of Gmail, Thunderbird, Yahoo and Outlook (by their class or id), and everything from
 * Outlook's reply header (divRplyFwdMsg, appendonsend) on, which quotes the original without any marks.
 *
 * A linear scan (no backtracking regular expressions over the document), so hostile HTML costs little.
 */
import { simpleParser } from 'mailparser';
import { decodeUtf7Text } from '../mail/mime-repair.js';

const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul']);
const SKIP = new Set(['head', 'style', 'script', 'title', 'template', 'noscript']);
/** Blocks that are not the writer's text: left out with everything inside them. */
const DROPPED = /\b(?:class|id)\s*=\s*["']?[^"'>]*\b(?:gmail_quote|gmail_attr|gmail_signature|gmail_signature_prefix|moz-cite-prefix|moz-signature|yahoo_quoted|ymail_android_signature|AppleMailSignature|Signature|ms-outlook-mobile-signature|x_Signature)\b/i;
/** Where the writer's text ends in an Outlook reply or forward: the original follows, unmarked. */
const CUT_HERE = /\bid\s*=\s*["']?(?:x_)?(?:divRplyFwdMsg|appendonsend|mail-editor-reference-message-container|OLK_SRC_BODY_SECTION)\b/i;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', hellip: '…', rarr: '→', copy: '©' };

export function htmlToOrderText(html: string): string {
  const lines: string[] = [];
  let line = '';
  let quote = 0;
  let pre = 0;
  let skip: string | undefined;
  // The element being dropped and how deep inside it the scan is (its own tag name nests).
  let dropped: { name: string; depth: number } | undefined;
  const flush = () => {
    const text = pre > 0 ? line : line.replace(/[ \t]+/g, ' ').trim();
    lines.push(quote > 0 && text !== '' ? `${'> '.repeat(quote)}${text}` : text);
    line = '';
  };
  const addText = (raw: string) => {
    const text = decodeEntities(raw);
    if (pre > 0) {
      const parts = text.split(/\r?\n/);
      parts.forEach((part, i) => {
        if (i > 0) flush();
        line += part;
      });
    } else {
      line += text.replace(/[\s]+/g, ' ');
    }
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      if (skip === undefined && dropped === undefined) addText(html.slice(i));
      break;
    }
    if (lt > i && skip === undefined && dropped === undefined) addText(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt + 1);
    if (gt < 0) break;
    const tag = html.slice(lt + 1, gt);
    i = gt + 1;
    const closing = tag.startsWith('/');
    const name = /^\/?\s*([a-zA-Z][a-zA-Z0-9]*)/.exec(tag)?.[1]?.toLowerCase();
    if (name === undefined) continue;
    if (skip !== undefined) {
      if (closing && name === skip) skip = undefined;
      continue;
    }
    if (SKIP.has(name) && !closing && !tag.endsWith('/')) {
      skip = name;
      continue;
    }
    if (dropped !== undefined) {
      if (name === dropped.name && !tag.endsWith('/')) dropped.depth += closing ? -1 : 1;
      if (dropped.depth === 0) dropped = undefined;
      continue;
    }
    if (!closing && tag.length < 2000 && CUT_HERE.test(tag)) break;
    if (!closing && !tag.endsWith('/') && tag.length < 2000 && DROPPED.test(tag)) {
      if (line !== '') flush();
      dropped = { name, depth: 1 };
      continue;
    }
    if (BLOCK.has(name)) {
      if (line !== '' || name === 'br' || name === 'p') flush();
      if (name === 'blockquote') quote = Math.max(0, quote + (closing ? -1 : 1));
      if (name === 'pre') pre = Math.max(0, pre + (closing ? -1 : 1));
      if (name === 'li' && !closing) line = '- ';
    }
  }
  if (line !== '') flush();
  // At most one empty line in a row, none at the ends.
  const out: string[] = [];
  for (const l of lines) if (l !== '' || (out.length > 0 && out[out.length - 1] !== '')) out.push(l);
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** Does the raw message hold an HTML part at all? (A cheap look before parsing it a second time.) */
export function mayBeHtml(raw: Buffer): boolean {
  return /content-type:\s*text\/html/i.test(raw.subarray(0, Math.min(raw.length, 512 * 1024)).toString('latin1'));
}

/**
 * The text of a message whose only text is HTML, converted without wrapping; undefined when the message
 * has a text/plain part (then mailparser's text is the player's own).
 */
export async function htmlOnlyText(raw: Buffer): Promise<string | undefined> {
  if (!mayBeHtml(raw)) return undefined;
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true, keepDeliveryStatus: true });
  if ((mail.text ?? '').trim() !== '' || typeof mail.html !== 'string') return undefined;
  return htmlToOrderText(decodeUtf7Text(raw, 'html', mail.html));
}
