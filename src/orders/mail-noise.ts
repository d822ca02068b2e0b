/**
 * What mail programs put into a message body that the writer did not type, blanked before the orders are
 * read (line numbers kept, so the receipt's numbers still match the mail):
 *
 *   - image placeholders, which is how a text part shows an inline image: Gmail's `[image: logo.png]`,
 *     Outlook's `[cid:image001.png@01DA…]`, Apple Mail's `<image001.png>`;
 *   - an app's "sent from" line and everything after it ("Sent from my iPhone", "Get Outlook for Android",
 *     "Sent from Mail for Windows", "Von meinem iPhone gesendet" …): it ends the writer's own text, and what
 *     follows is a signature or the quoted original;
 *   - a name signed on a line of its own after the orders ("Hilde"): one word, no order or header after it.
 */
import { parseOrderLine } from './text-line.js';
import { LINE_KEYWORDS } from './line-forms.js';

const PLACEHOLDER = /^(?:\s*(?:\[(?:image|inline image|cid|bild|imagen|immagine|afbeelding|imagem|grafik)\s*:[^\]]{0,300}\]|<[^<>\s]{1,200}\.(?:png|jpe?g|gif|bmp|heic|webp)>))+\s*$/i;

/** The start of a "sent from" line, in the forms of the common apps and languages. */
const SENT_FROM = new RegExp(
  '^(?:' +
    [
      // English: Sent from my iPhone / Sent from Mail for Windows / Sent with Proton Mail / Sent via … / Sent using …
      'sent (?:from|with|via|using|by) \\S',
      'get (?:outlook|microsoft outlook|bluemail|spark|newton mail)\\b',
      'download (?:outlook|bluemail)\\b',
      // German
      'von meinem \\S.* gesendet',
      'gesendet (?:von|mit|vom|aus) \\S',
      'outlook für (?:ios|android) (?:herunterladen|beziehen)',
      // French
      'envoy[ée] (?:de|depuis|à partir de|avec|par) \\S',
      'obtenir outlook pour (?:ios|android)',
      // Spanish, Portuguese
      'enviado (?:desde|do|da|de|con|com) \\S',
      'obtener outlook para (?:ios|android)',
      // Italian
      'inviato (?:da|dal|dalla|con) \\S',
      'scarica outlook per (?:ios|android)',
      // Dutch
      '(?:verzonden|verstuurd) (?:vanaf|van|met|via) \\S',
      'outlook voor (?:ios|android) downloaden',
      // Nordic
      '(?:skickat|sendt) (?:från|fra) \\S',
      'lähetetty \\S',
    ].join('|') +
    ')',
  'i',
);

/** A "sent from" signature is short; a long line starting the same way is the writer's own sentence. */
const MAX_SENT_FROM = 160;

const ONE_WORD = /^\p{L}[\p{L}'’.-]{0,40}[,.!]?$/u;
const NOT_A_NAME = new Set([...LINE_KEYWORDS, 'orders', 'order', 'go', 'march', 'sail', 'besiege', 'protect', 'message']);

export function blankMailNoise(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (t.length <= MAX_SENT_FROM && SENT_FROM.test(t)) {
      for (let k = i; k < lines.length; k++) lines[k] = '';
      break;
    }
    if (PLACEHOLDER.test(t)) lines[i] = '';
  }
  return blankSignedName(lines).join('\n');
}

/** Is this line an order or a header line (a quote is neither)? */
function ordersLine(line: string): boolean {
  const t = line.trim();
  if (t === '' || t.startsWith('>') || t.startsWith('#')) return false;
  const kind = parseOrderLine(t).kind;
  return kind === 'order' || kind === 'header';
}

/** Blanks a one-word line, and what follows it, when orders stand above it and none below. */
function blankSignedName(lines: string[]): string[] {
  let last = -1;
  for (let i = lines.length - 1; i >= 0 && last < 0; i--) if (ordersLine(lines[i]!)) last = i;
  for (let i = last + 1; i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (last >= 0 && ONE_WORD.test(t) && !NOT_A_NAME.has(t.replace(/[,.!]$/, '').toLowerCase())) {
      for (let k = i; k < lines.length; k++) lines[k] = '';
      break;
    }
  }
  return lines;
}
