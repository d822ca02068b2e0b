/**
 * Is the From field one valid mailbox (RFC 5322 §3.4, with RFC 6532's UTF-8)? mailparser reads almost
 * anything as an address: `Duke [Argenta] <duke@argenta.test>` becomes duke@argenta.test, `Duke Cristoval`
 * an empty address. The mailroom maps senders to nations by address, so a field that is not a mailbox is
 * refused whole rather than guessed at.
 *
 * Read from the raw header (latin1, unfolded): bytes above 0x7f are allowed where RFC 6532 allows UTF-8.
 */
export type FromCheck = { ok: true } | { ok: false; problem: string };

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u0080-\\uffff]";
const DOT_ATOM = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`);
const QUOTED = /^"(?:[^"\\\r\n]|\\.)*"$/;
const DOMAIN_LITERAL = /^\[[^[\]\\\s]*\]$/;

/** Checks the From fields of a message; a message without any is not this check's business. */
export function checkFromFields(values: readonly string[] | undefined): FromCheck {
  if (values === undefined || values.length === 0) return { ok: true };
  if (values.length > 1) return { ok: false, problem: `the message has ${values.length} From fields` };
  return checkMailbox(values[0]!);
}

function checkMailbox(value: string): FromCheck {
  const stripped = stripComments(value);
  if (stripped === undefined) return { ok: false, problem: 'a quote or parenthesis is not closed' };
  const text = stripped.trim();
  if (text === '') return { ok: false, problem: 'it holds no address at all' };
  const lt = indexOutsideQuotes(text, '<');
  if (lt < 0) {
    if (indexOutsideQuotes(text, '@') < 0) return { ok: false, problem: 'it holds no address at all' };
    if (/[,;]/.test(unquoted(text))) return { ok: false, problem: 'it holds more than one address, or a group' };
    return isAddrSpec(text) ? { ok: true } : { ok: false, problem: 'the address is not valid' };
  }
  if (!text.endsWith('>')) return { ok: false, problem: 'there is text after the address in angle brackets' };
  const name = text.slice(0, lt).trim();
  const address = text.slice(lt + 1, -1).trim();
  if (address === '') return { ok: false, problem: 'the angle brackets hold no address' };
  if (!isAddrSpec(address)) return { ok: false, problem: 'the address in angle brackets is not valid' };
  if (!isPhrase(name)) return { ok: false, problem: 'the name before the address has characters that must be in quotes (brackets, commas, colons, @)' };
  return { ok: true };
}

/** A display name: words (atoms, dots, encoded words) and quoted strings. */
function isPhrase(name: string): boolean {
  let rest = name;
  while (rest !== '') {
    if (rest.startsWith('"')) {
      const end = closingQuote(rest);
      if (end < 0) return false;
      rest = rest.slice(end + 1).trimStart();
      continue;
    }
    const word = new RegExp(`^(?:${ATEXT}|\\.)+`).exec(rest)?.[0];
    if (word === undefined) return false;
    rest = rest.slice(word.length).trimStart();
  }
  return true;
}

function isAddrSpec(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  return (DOT_ATOM.test(local) || QUOTED.test(local)) && (DOT_ATOM.test(domain) || DOMAIN_LITERAL.test(domain));
}

/** The value without its comments (nested parentheses, outside quoted strings); undefined when unbalanced. */
function stripComments(value: string): string | undefined {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '\\' && (quoted || depth > 0)) {
      if (depth === 0) out += value.slice(i, i + 2);
      i++;
      continue;
    }
    if (depth === 0 && ch === '"') quoted = !quoted;
    if (!quoted && ch === '(') {
      depth++;
      continue;
    }
    if (!quoted && ch === ')') {
      if (depth === 0) return undefined;
      depth--;
      if (depth === 0) out += ' ';
      continue;
    }
    if (depth === 0) out += ch;
  }
  return depth === 0 && !quoted ? out : undefined;
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function indexOutsideQuotes(text: string, ch: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && quoted) i++;
    else if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text[i] === ch) return i;
  }
  return -1;
}

function unquoted(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
}
