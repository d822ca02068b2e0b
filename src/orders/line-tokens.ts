/**
 * The words of a plain-text order line (text-line.ts): coordinates, quoted names, commas and plain
 * words, and the small readers that turn runs of them into names, lists and paths.
 */

export interface Token {
  text: string;
  /** Lower-cased text; empty for quoted tokens, which are never keywords. */
  word: string;
  quoted: boolean;
}

/** Coordinates ("12,7", "12, 7"), quoted names, commas, and plain words. */
const TOKEN = /(-?\d+\s*,\s*-?\d+)(?![\d])|"([^"]*)(?:"|$)|“([^”]*)(?:”|$)|(?<![^\s,])'([^']*)'(?=[\s,.;]|$)|(,)|([^\s,"“”]+)/g;

export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  for (const m of line.matchAll(TOKEN)) {
    const quoted = m[2] ?? m[3] ?? m[4];
    if (quoted !== undefined) tokens.push({ text: quoted.trim(), word: '', quoted: true });
    else if (m[1] !== undefined) tokens.push({ text: m[1].replace(/\s+/g, ''), word: m[1].replace(/\s+/g, ''), quoted: false });
    else {
      const text = m[5] ?? m[6] ?? '';
      tokens.push({ text, word: text.toLowerCase().replace(/(?<=.):$/, ''), quoted: false });
    }
  }
  return tokens;
}

const word = (text: string): Token => ({ text, word: text, quoted: false });

/** "spending up to 4 Fate", "pledging 2 fate", "4 fate", "with 4 fate", "fate: 4" all become "fate 4". */
export function normaliseFate(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const at = (k: number) => tokens[i + k]?.word ?? '';
    if (['spending', 'spend', 'pledging', 'pledge', 'with'].includes(t.word)) {
      const skip = at(1) === 'up' && at(2) === 'to' ? 2 : 0;
      if (/^\d+$/.test(at(1 + skip)) && at(2 + skip) === 'fate') {
        out.push(word('fate'), tokens[i + 1 + skip] as Token);
        i += 2 + skip;
        continue;
      }
    }
    if (/^\d+$/.test(t.word) && at(1) === 'fate' && !/^\d+$/.test(at(2))) {
      out.push(word('fate'), t);
      i += 1;
      continue;
    }
    out.push(t);
  }
  return out;
}

/** "then battlement +1 then poison water": the further siege actions are one list. */
export function oneThen(tokens: Token[]): Token[] {
  const first = tokens.findIndex((t) => t.word === 'then');
  return tokens.map((t, i) => (i > first && first >= 0 && t.word === 'then' ? { text: ',', word: ',', quoted: false } : t));
}

/** "burn "X" for obstacles": that "obstacles" is what the burn buys, not the plan's obstacles clause. */
export function burnTarget(tokens: Token[]): Token[] {
  return tokens.map((t, i) => (['obstacles', 'obstacle'].includes(t.word) && ['for', 'as', 'into'].includes(tokens[i - 1]?.word ?? '') ? { ...t, word: '', quoted: true } : t));
}

export function join(tokens: Token[]): string {
  return tokens
    .map((t) => t.text)
    .join(' ')
    .replace(/\s+,/g, ',')
    .trim();
}

export function trimCommas(tokens: Token[]): Token[] {
  let a = 0;
  let b = tokens.length;
  while (a < b && tokens[a]?.text === ',') a++;
  while (b > a && tokens[b - 1]?.text === ',') b--;
  return tokens.slice(a, b);
}

/**
 * The items between separators (a quoted token is never one), each joined back to text; a token that
 * `standsAlone` is an item of its own, whatever stands beside it.
 */
function splitTokens(tokens: Token[], isSeparator: (t: Token) => boolean, standsAlone: (t: Token) => boolean = () => false): string[] {
  const items: string[] = [];
  let current: Token[] = [];
  const flush = () => {
    if (current.length) items.push(join(current));
    current = [];
  };
  for (const t of tokens) {
    if (!t.quoted && isSeparator(t)) flush();
    else if (!t.quoted && standsAlone(t)) {
      flush();
      items.push(t.text);
    } else current.push(t);
  }
  flush();
  return items;
}

/** "argenta-4, argenta-5 and Iron Guard" → three names; quoted names may hold "and". */
export function splitList(tokens: Token[]): string[] {
  return splitTokens(tokens, (t) => t.text === ',' || t.word === 'and' || t.word === '&' || t.word === '+');
}

/** "11,7 12,7", "11,7, 12,7", "11,7 -> 12,7", "Silver vein then 9,3": hexes and place names. */
export function splitPath(tokens: Token[]): string[] {
  return splitTokens(
    tokens,
    (t) => t.text === ',' || ['and', 'then', '->', '→', '>'].includes(t.word),
    (t) => /^-?\d+,-?\d+$/.test(t.text),
  );
}

export function clipWord(text: string): string {
  const t = text.trim();
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
}
