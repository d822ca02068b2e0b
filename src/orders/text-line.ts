import type { RawFields } from './interpret.js';
import type { SheetHeader } from './sheet.js';
import { didYouMean, editDistance } from '../text/suggest.js';
import { withArticle } from '../core/prose.js';

/**
 * The grammar of one plain-text order line, as players write them by hand:
 *
 *   move Iron Guard to 12,7 via 11,7 12,7
 *   attack gondarahl-3 with Iron Guard supported by argenta-4 and argenta-5 fate 4
 *   Iron Guard attacks gondarahl-3 with argenta-4 fate 4
 *
 * The first word is the order (or a header: nation, turn, token, casualties);
 * keywords (to, via, with, supported by, fate...) separate the parts, so unit
 * and place names may hold spaces. Keywords are case-insensitive; a name that
 * contains a keyword goes in double quotes. A line becomes the same fields a
 * YAML order has, so both formats share one interpreter (interpret.ts).
 * docs/orders.md is the player-facing description of this grammar.
 */
export type LineResult =
  | { kind: 'order'; fields: RawFields }
  | { kind: 'header'; header: SheetHeader; value: string | string[] }
  | { kind: 'skip' }
  | { kind: 'problem'; reason: string; hint?: string; unknownVerb?: string };

interface Token {
  text: string;
  /** Lower-cased text; empty for quoted tokens, which are never keywords. */
  word: string;
  quoted: boolean;
}

/** Coordinates ("12,7", "12, 7"), quoted names, commas, and plain words. */
const TOKEN = /(-?\d+\s*,\s*-?\d+)(?![\d])|"([^"]*)(?:"|$)|“([^”]*)(?:”|$)|(?<![^\s,])'([^']*)'(?=[\s,.;]|$)|(,)|([^\s,"“”]+)/g;

function tokenize(line: string): Token[] {
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
function normaliseFate(tokens: Token[]): Token[] {
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

type Shape = 'one' | 'list' | 'path';

interface Clause {
  /** Keyword phrases, lower case, longest first when matched. */
  phrases: string[];
  field: string;
  shape: Shape;
}

interface Form {
  kind: string;
  /** Field the words before the first keyword fill; undefined: nothing may stand there. */
  subject?: { field: string; shape: Shape };
  clauses: Clause[];
  required: string[];
  usage: string;
}

const FATE: Clause = { phrases: ['fate'], field: 'fate', shape: 'one' };
const AIM: Clause = { phrases: ['aiming at', 'aimed at', 'aim at', 'aiming for'], field: 'aim', shape: 'one' };
const LOSSES: Clause = { phrases: ['casualties', 'losses', 'loss order', 'losing first'], field: 'casualties', shape: 'list' };
/** The unit that carries the order out: "with argenta-2", "using", "by". */
const by = (field: string): Clause => ({ phrases: ['with', 'using', 'by'], field, shape: 'one' });
const SUPPORT: Clause = { phrases: ['supported by', 'with support from', 'support', 'supporting', 'backed by'], field: 'support', shape: 'list' };

/** Orders written verb first: "move <unit> to <hex>". */
const VERB_FIRST: Record<string, Form> = {
  move: {
    kind: 'move',
    subject: { field: 'move', shape: 'one' },
    clauses: [
      { phrases: ['to'], field: 'to', shape: 'one' },
      { phrases: ['via', 'through', 'path', 'by way of'], field: 'path', shape: 'path' },
      { phrases: ['carrying', 'carry', 'taking', 'with passengers'], field: 'carry', shape: 'list' },
      { phrases: ['landing at', 'land at', 'lands at', 'and land at', 'landing them at', 'unloading at', 'landing', 'land'], field: 'land', shape: 'one' },
    ],
    required: ['move', 'to'],
    usage: 'move Iron Guard to 12,7 [via 11,7 12,7] — ships: move galley-1 to 5,5 carrying argenta-3 landing at 6,5',
  },
  attack: {
    kind: 'attack',
    subject: { field: 'target', shape: 'one' },
    clauses: [by('attack'), SUPPORT, FATE, LOSSES],
    required: ['target', 'attack'],
    usage: 'attack gondarahl-3 with Iron Guard [supported by argenta-4 and argenta-5] [fate 4] — or a structure: attack the mine at 9,4 with Iron Guard',
  },
  defend: {
    kind: 'defend',
    subject: { field: 'protect', shape: 'one' },
    clauses: [by('defend'), FATE],
    required: ['protect', 'defend'],
    usage: 'defend Argentum with argenta-6 [fate 2]',
  },
  rest: { kind: 'rest', subject: { field: 'rest', shape: 'one' }, clauses: [], required: ['rest'], usage: 'rest argenta-2' },
  hold: { kind: 'hold', subject: { field: 'hold', shape: 'one' }, clauses: [FATE], required: ['hold'], usage: 'hold argenta-2 [fate 1]' },
  construct: {
    kind: 'construct',
    subject: { field: 'structure', shape: 'one' },
    clauses: [by('construct')],
    required: ['structure', 'construct'],
    usage: 'construct mine with argenta-7',
  },
  found: {
    kind: 'found',
    subject: { field: 'name', shape: 'one' },
    clauses: [by('found')],
    required: ['name', 'found'],
    usage: 'found "New Silverton" with argenta-7',
  },
  upgrade: { kind: 'upgrade', subject: { field: 'upgrade', shape: 'one' }, clauses: [], required: ['upgrade'], usage: 'upgrade Port Argent' },
  siege: {
    kind: 'siege',
    subject: { field: 'action', shape: 'one' },
    clauses: [by('siege'), { phrases: ['and then', 'then'], field: 'then', shape: 'list' }, FATE],
    required: ['action', 'siege'],
    usage: 'siege destroy battlement +2 with argenta-2 [then battlement +1, poison water] [fate 2] — or: siege poison water with argenta-2',
  },
  sortie: {
    kind: 'sortie',
    subject: { field: 'sortie', shape: 'one' },
    clauses: [{ phrases: ['against', 'on', 'at', 'vs', 'versus'], field: 'target', shape: 'one' }, FATE],
    required: ['sortie', 'target'],
    usage: 'sortie argenta-9 against gondarahl-4 [fate 2]',
  },
  assault: {
    kind: 'assault',
    subject: { field: 'assault', shape: 'one' },
    clauses: [by('with'), SUPPORT, FATE, LOSSES],
    required: ['assault'],
    usage: 'assault with argenta-2 [supported by argenta-3] [fate 2]',
  },
  explore: { kind: 'explore', subject: { field: 'explore', shape: 'one' }, clauses: [FATE], required: ['explore'], usage: 'explore argenta-7 [fate 1]' },
  answer: {
    kind: 'answer',
    subject: { field: 'answer', shape: 'one' },
    clauses: [{ phrases: ['choosing', 'choice'], field: 'choice', shape: 'one' }, FATE],
    required: ['answer'],
    usage: 'answer bandits fight [fate 2] — the event, then your choice if it offers one',
  },
  create: {
    kind: 'advantage',
    subject: { field: 'advantage', shape: 'one' },
    clauses: [
      by('with'),
      { phrases: ['on', 'upon'], field: 'on', shape: 'one' },
    ],
    required: ['advantage', 'with'],
    usage: 'create advantage "High Walls" with leader [on Cinderford] — or with a diplomatic unit, on a nation, settlement, unit or hex',
  },
  overcome: {
    kind: 'overcome',
    subject: { field: 'overcome', shape: 'one' },
    clauses: [by('with')],
    required: ['overcome', 'with'],
    usage: 'overcome "Plague Winds" with leader — or with a diplomatic unit',
  },
  invoke: {
    kind: 'invoke',
    subject: { field: 'invoke', shape: 'one' },
    // The roll follows the first "on" or "for", whatever words it holds ("on the assault on Cinderford").
    clauses: [],
    required: ['invoke', 'on'],
    usage: 'invoke "High Walls" on the battle at 25,6 [fate] [reroll] — or on the assault on Cinderford, the siege of Cinderford, the roll bandits',
  },
  act: {
    kind: 'act',
    subject: { field: 'action', shape: 'one' },
    clauses: [
      by('act'),
      { phrases: ['on', 'against', 'in', 'at', 'between', 'targeting'], field: 'target', shape: 'one' },
      AIM,
      FATE,
    ],
    required: ['action', 'act', 'target'],
    usage: 'act espionage with Whisperer Lisane on Gondarahl [aiming at temple] [fate 1] — or: Whisperer Lisane spies on Gondarahl',
  },
  plan: {
    kind: 'plan',
    subject: { field: 'plan', shape: 'one' },
    clauses: [
      { phrases: ['withdrawing at', 'withdraw at', 'withdraw'], field: 'withdraw', shape: 'one' },
      { phrases: ['on a tie', 'on tie', 'tie'], field: 'tie', shape: 'one' },
      { phrases: ['targeting', 'target'], field: 'target', shape: 'one' },
      { phrases: ['in reserve', 'reserve'], field: 'reserve', shape: 'one' },
      { phrases: ['until exchange', 'until'], field: 'until', shape: 'one' },
      { phrases: ['field'], field: 'field', shape: 'one' },
      { phrases: ['obstacles'], field: 'obstacles', shape: 'one' },
      { phrases: ['burning', 'burn'], field: 'burn', shape: 'one' },
    ],
    required: ['plan'],
    usage: 'plan aggressive [withdraw at 2] [on tie stress] [target archers|commander] [reserve 2|cavalry [until 5]] [field deep|wide] [obstacles ahead|flanks|far|none] [burn "<aspect>" for zones|obstacles] — the battle plan of your Warfare battles this turn',
  },
  heir: {
    kind: 'heir',
    subject: { field: 'heir', shape: 'one' },
    clauses: [{ phrases: ['with ability', 'with the ability', 'bringing', 'ability', 'with'], field: 'ability', shape: 'one' }],
    required: ['heir'],
    usage: 'heir "Lady Mirela" [with ability sea-lord]',
  },
};

/** Orders written subject first, the way receipts echo them: "Iron Guard attacks gondarahl-3". */
const SUBJECT_FIRST: Record<string, Form> = {
  moves: {
    kind: 'move',
    subject: { field: 'to', shape: 'one' },
    clauses: VERB_FIRST.move?.clauses ?? [],
    required: ['to'],
    usage: 'Iron Guard moves to 12,7 [via 11,7 12,7]',
  },
  attacks: {
    kind: 'attack',
    subject: { field: 'target', shape: 'one' },
    clauses: [{ phrases: ['with', 'supported by', 'with support from', 'support', 'backed by'], field: 'support', shape: 'list' }, FATE, LOSSES],
    required: ['target'],
    usage: 'Iron Guard attacks gondarahl-3 [with argenta-4 and argenta-5] [fate 4]',
  },
  defends: {
    kind: 'defend',
    subject: { field: 'protect', shape: 'one' },
    clauses: [FATE],
    required: ['protect'],
    usage: 'argenta-6 defends Argentum [fate 2]',
  },
  rests: { kind: 'rest', clauses: [], required: [], usage: 'argenta-2 rests' },
  holds: { kind: 'hold', clauses: [FATE], required: [], usage: 'argenta-2 holds [fate 1]' },
  founds: { kind: 'found', subject: { field: 'name', shape: 'one' }, clauses: [], required: ['name'], usage: 'Old Mother Grukka founds Skullrock' },
  constructs: { kind: 'construct', subject: { field: 'structure', shape: 'one' }, clauses: [], required: ['structure'], usage: 'argenta-7 constructs mine' },
};

/**
 * The verbs as people write them after a plural or collective name ("Bonecrushers move to 28,17"). Looked
 * for only when no "-s" form is on the line, so a unit named "Last Hold" still moves.
 */
/** Words that start a sentence, not a unit's name: "Please move my troops" is a request, not an order. */
const SENTENCE_STARTS = new Set(['please', 'kindly', 'i', 'we', 'you', 'they', 'he', 'she', 'it', 'then', 'and', 'also', 'now', 'let', "let's", 'lets', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'must', 'do', "don't", 'dont', 'not', 'never', 'all', 'my', 'our']);

const SUBJECT_BASE_FORMS: Record<string, string> = {
  move: 'moves',
  march: 'moves',
  sail: 'moves',
  go: 'moves',
  attack: 'attacks',
  besiege: 'attacks',
  defend: 'defends',
  protect: 'defends',
  rest: 'rests',
  hold: 'holds',
  found: 'founds',
  construct: 'constructs',
};

const VERB_ALIASES: Record<string, string> = { go: 'move', march: 'move', sail: 'move', besiege: 'attack', protect: 'defend', raze: 'attack', destroy: 'attack' };
const SUBJECT_ALIASES: Record<string, string> = { marches: 'moves', sails: 'moves', goes: 'moves', besieges: 'attacks', protects: 'defends', razes: 'attacks', destroys: 'attacks' };
/** "raze the mine at 9,4 with Iron Guard": an attack on a structure that destroys it rather than take it (docs/rules.md X3). */
const RAZING = new Set(['raze', 'destroy', 'razes', 'destroys']);
const razing = (verb: string, read: LineResult): LineResult => (RAZING.has(verb) && read.kind === 'order' ? { kind: 'order', fields: { ...read.fields, destroy: true } } : read);
const HEADERS: Record<string, SheetHeader> = { nation: 'nation', turn: 'turn', token: 'token', casualties: 'casualties', losses: 'casualties' };

const SUBJECT_VERBS = [...Object.keys(SUBJECT_FIRST), ...Object.keys(SUBJECT_ALIASES)];

/** The Fate layer's verbs (rules.fate.aspects) and Warfare's plan (rules.warfare), off by default: suggested for slips, not listed to every player. */
const FATE_VERBS = ['create', 'overcome', 'invoke', 'plan'];

/** Every word a line may start with, for "did you mean". */
export const LINE_KEYWORDS = [...Object.keys(VERB_FIRST).filter((v) => !FATE_VERBS.includes(v)), 'build', 'note', 'press', 'accept', 'hunt', ...Object.keys(HEADERS).filter((h) => h !== 'losses')];

/** Reads one line (comments already removed, not blank). Never throws. */
export function parseOrderLine(line: string): LineResult {
  const raw = line.trim().replace(/^(?:\d{1,3}[.)]|[-*•·])\s+/, '');
  const first = /^([^\s:]+)\s*:?\s*(.*)$/s.exec(raw);
  const head = (first?.[1] ?? '').toLowerCase();
  const rest = first?.[2] ?? '';
  // "Orders:", "Orders for turn 4": a heading. No order starts with the word.
  if (/^orders?$/.test(head)) return { kind: 'skip' };
  if (head === 'note' || head === 'message') {
    if (!rest.trim()) return { kind: 'problem', reason: 'a note needs some text after "note"', hint: 'note Please tell Gondarahl we want peace' };
    return { kind: 'order', fields: { note: rest.trim() } };
  }
  if (head === 'press' || head === 'letter') return readPress(rest);
  if (head === 'accept') {
    const m = /^trade\s+(?:with|from)\s+(.+?)[.;]?$/i.exec(rest.trim());
    if (!m) return { kind: 'problem', reason: 'write what you accept: "accept trade with <nation>"', hint: 'accept trade with Argenta' };
    return { kind: 'order', fields: { accept_trade: m[1]!.replace(/^["“]|["”]$/g, '') } };
  }
  if (head === 'hunt' || (head === 'let' && /^(?:the\s+)?(?:spies|spy|agents?)\b/i.test(rest.trim()))) return readHunt(head, rest);
  const header = HEADERS[head];
  if (header) return readHeader(header, rest);
  const body = normaliseFate(tokenize(raw.replace(/[.;]+$/, '')));
  const verb = VERB_ALIASES[head] ?? head;
  if (verb === 'build') return readBuild(body.slice(1));
  const form = VERB_FIRST[verb];
  if (form) return razing(head, readForm(form, body.slice(1)));
  let at = body.findIndex((t, i) => i > 0 && !t.quoted && (SUBJECT_FIRST[t.word] || SUBJECT_ALIASES[t.word]));
  if (at < 0 && !SENTENCE_STARTS.has(head)) at = body.findIndex((t, i) => i > 0 && !t.quoted && SUBJECT_BASE_FORMS[t.word] !== undefined);
  const subjectVerb = at > 0 ? (body[at] as Token).word : undefined;
  if (subjectVerb) {
    const sf = SUBJECT_FIRST[SUBJECT_ALIASES[subjectVerb] ?? SUBJECT_BASE_FORMS[subjectVerb] ?? subjectVerb] as Form;
    const unit = join(body.slice(0, at));
    const read = readForm(sf, body.slice(at + 1));
    if (read.kind !== 'order') return read;
    return razing(subjectVerb, { kind: 'order', fields: ordered(sf.kind, { ...read.fields, [sf.kind]: unit }) });
  }
  const slip = body.slice(1).find((t) => !t.quoted && t.word.length >= 4 && SUBJECT_VERBS.some((v) => editDistance(t.word, v) <= 1 || isSwap(t.word, v)));
  const near = slip ? SUBJECT_VERBS.find((v) => editDistance(slip.word, v) <= 1 || isSwap(slip.word, v)) : undefined;
  return {
    kind: 'problem',
    // The campaign's own action verbs ("Lisane spies on Gondarahl") are tried on this line once the campaign is known (actionLine).
    unknownVerb: raw,
    reason: `unknown order "${clipWord(first?.[1] ?? raw)}"`,
    hint:
      (slip && near ? `did you mean "${near}" instead of "${slip.text}"?` : undefined) ??
      didYouMean(head, [...LINE_KEYWORDS, ...FATE_VERBS, ...Object.keys(VERB_ALIASES)]) ??
      `an order starts with one of: ${LINE_KEYWORDS.join(', ')}; or with the unit: "Iron Guard moves to 12,7" (moves, attacks, defends, rests, holds, founds, constructs, or an action's verb: spies on, sabotages…)`,
  };
}

const ARTICLES = ['a', 'an', 'the'];

function readHeader(header: SheetHeader, rest: string): LineResult {
  const value = rest.trim();
  if (!value) return { kind: 'problem', reason: `"${header}" needs a value`, hint: HEADER_USAGE[header] };
  if (header === 'turn') {
    if (!/^\d{1,6}$/.test(value)) return { kind: 'problem', reason: `the turn must be a whole number, not "${clipWord(value)}"`, hint: HEADER_USAGE.turn };
    return { kind: 'header', header, value };
  }
  if (header === 'casualties') {
    const units = splitList(tokenize(value));
    if (!units.length) return { kind: 'problem', reason: 'casualties lists units, first lost first', hint: HEADER_USAGE.casualties };
    return { kind: 'header', header, value: units };
  }
  if (header === 'token' && /\s/.test(value)) return { kind: 'problem', reason: 'an order token is one word, without spaces', hint: HEADER_USAGE.token };
  return { kind: 'header', header, value: header === 'nation' ? value.replace(/^["“]|["”]$/g, '') : value };
}

const HEADER_USAGE: Record<SheetHeader, string> = {
  nation: 'Nation: argenta',
  turn: 'Turn: 4',
  token: 'Token: <the secret token from your turn report>',
  casualties: 'Casualties: argenta-4, Iron Guard',
};

interface Split {
  subject: Token[];
  parts: { clause: Clause; keyword: string; tokens: Token[] }[];
}

function splitClauses(tokens: Token[], clauses: Clause[]): Split {
  const phrases = clauses
    .flatMap((clause) => clause.phrases.map((p) => ({ clause, words: p.split(' ') })))
    .sort((a, b) => b.words.length - a.words.length);
  const split: Split = { subject: [], parts: [] };
  let current = split.subject;
  for (let i = 0; i < tokens.length; ) {
    const hit = phrases.find((p) => p.words.every((w, k) => tokens[i + k]?.word === w && !tokens[i + k]?.quoted));
    if (hit) {
      current = [];
      split.parts.push({ clause: hit.clause, keyword: hit.words.join(' '), tokens: current });
      i += hit.words.length;
      continue;
    }
    current.push(tokens[i] as Token);
    i += 1;
  }
  return split;
}

/** "then battlement +1 then poison water": the further siege actions are one list. */
function oneThen(tokens: Token[]): Token[] {
  const first = tokens.findIndex((t) => t.word === 'then');
  return tokens.map((t, i) => (i > first && first >= 0 && t.word === 'then' ? { text: ',', word: ',', quoted: false } : t));
}

const PRESS_USAGE = 'press to Gondarahl: We want peace — or: press to all: … — or: press unsigned to Borea: …';

/** "press [unsigned] to Gondarahl, Borea: the letter": recipients before the colon, the letter after it. */
/** "hunt spies [fate N]" and "let spies go" (docs/orders.md): the guards' word for this turn's catch rolls. */
function readHunt(head: string, rest: string): LineResult {
  const words = rest.trim().replace(/[.;]+$/, '').toLowerCase();
  if (head === 'let') {
    if (/^(?:the\s+)?(?:spies|spy|agents?)\s+go$/.test(words)) return { kind: 'order', fields: { hunt_spies: 'let go' } };
    return { kind: 'problem', reason: 'write "let spies go" to let the agents your guards could catch go free', hint: 'let spies go' };
  }
  const m = /^(?:the\s+)?(?:spies|spy|agents?|saboteurs?)(?:\s+(?:with\s+)?fate\s+(\d{1,3}))?$/.exec(words);
  if (!m) return { kind: 'problem', reason: 'write "hunt spies", with Fate if you wish: "hunt spies fate 2"', hint: 'hunt spies fate 2' };
  return { kind: 'order', fields: { hunt_spies: 'hunt', ...(m[1] !== undefined ? { fate: Number(m[1]) } : {}) } };
}

function readPress(rest: string): LineResult {
  const m = /^(?:(unsigned|anonymous(?:ly)?)\s+)?(?:to\s+)?([^:]*?)\s*:\s*(.*)$/is.exec(rest.trim());
  if (!m) return { kind: 'problem', reason: 'a letter names who it is for, then a colon, then the letter', hint: PRESS_USAGE };
  const [, unsigned, to = '', letter = ''] = m;
  if (!to.trim()) return { kind: 'problem', reason: 'this letter does not say who it is for', hint: PRESS_USAGE };
  if (!letter.trim()) return { kind: 'problem', reason: 'a letter needs some text after the colon', hint: PRESS_USAGE };
  const recipients = to.split(/\s*,\s*|\s+and\s+/i).filter(Boolean);
  return { kind: 'order', fields: { press: recipients, text: letter.trim(), ...(unsigned ? { anonymous: true } : {}) } };
}

/** Words that may follow "abandoning" at the end of a line: "abandoning the work", "abandoning its siege". */
const ABANDON_TAIL = ['the', 'its', 'their', 'work', 'siege', 'build', 'site'];

/**
 * "move argenta-7 to 9,5 abandoning": the player's word that the order may
 * end work in progress. Only at the end of the line and never quoted, so a
 * unit named "Abandon" in quotes stays a name.
 */
function takeAbandon(tokens: Token[]): { tokens: Token[]; abandon: boolean } {
  let end = tokens.length;
  while (end > 0 && ABANDON_TAIL.includes(tokens[end - 1]?.word ?? '') && !tokens[end - 1]?.quoted) end--;
  const last = tokens[end - 1];
  if (!last || last.quoted || !['abandoning', 'abandon'].includes(last.word)) return { tokens, abandon: false };
  let keep = end - 1;
  while (keep > 0 && !tokens[keep - 1]?.quoted && [',', 'and'].includes(tokens[keep - 1]?.word ?? '')) keep--;
  return { tokens: tokens.slice(0, keep), abandon: true };
}

/** Words that may end an invoke line: how it is paid and whether it re-rolls ("… free", "… with fate reroll"). */
const INVOKE_TAIL = new Set(['free', 'fate', 'paid', 'paying', 'reroll', 're-roll', 'rerolling', 'and', 'with', 'for', 'using', 'a', 'invoke', 'point', 'spending']);

function takeInvokeFlags(tokens: Token[]): { tokens: Token[]; pay?: 'free' | 'fate'; reroll: boolean; both: boolean } {
  let end = tokens.length;
  const words: string[] = [];
  while (end > 0) {
    const t = tokens[end - 1] as Token;
    // "fate 1" after normaliseFate: one Fate point is the invoke's price.
    if (!t.quoted && /^\d+$/.test(t.word) && tokens[end - 2]?.word === 'fate') {
      end -= 1;
      continue;
    }
    if (t.quoted || !INVOKE_TAIL.has(t.word)) break;
    words.push(t.word);
    end -= 1;
  }
  const free = words.includes('free');
  const fate = words.some((w) => ['fate', 'paid', 'paying'].includes(w));
  return { tokens: tokens.slice(0, end), ...(free !== fate ? { pay: free ? 'free' : 'fate' } : {}), reroll: words.some((w) => w.startsWith('re')), both: free && fate };
}

/** "burn "X" for obstacles": that "obstacles" is what the burn buys, not the plan's obstacles clause. */
function burnTarget(tokens: Token[]): Token[] {
  return tokens.map((t, i) => (['obstacles', 'obstacle'].includes(t.word) && ['for', 'as', 'into'].includes(tokens[i - 1]?.word ?? '') ? { ...t, word: '', quoted: true } : t));
}

function readForm(form: Form, given: Token[]): LineResult {
  let written = given;
  const flags: RawFields = {};
  if (form.kind === 'invoke') {
    const f = takeInvokeFlags(given);
    if (f.both) return { kind: 'problem', reason: 'an invoke is paid with a free invoke or with Fate, not both', hint: `write it like: ${form.usage}` };
    if (f.pay) flags.pay = f.pay;
    if (f.reroll) flags.reroll = true;
    const at = f.tokens.findIndex((t) => !t.quoted && (t.word === 'on' || t.word === 'for'));
    written = at < 0 ? f.tokens : f.tokens.slice(0, at);
    const roll = at < 0 ? [] : trimCommas(f.tokens.slice(at + 1));
    if (at >= 0 && !roll.length) return { kind: 'problem', reason: `nothing follows "${(f.tokens[at] as Token).word}"`, hint: `write it like: ${form.usage}` };
    if (roll.length) flags.on = join(roll);
  }
  if (form.kind === 'plan') written = burnTarget(written);
  const { tokens, abandon } = form.kind === 'move' || form.kind === 'attack' ? takeAbandon(written) : form.kind === 'siege' ? { tokens: oneThen(written), abandon: false } : { tokens: written, abandon: false };
  const { subject, parts } = splitClauses(tokens, form.clauses);
  const fields: RawFields = {};
  if (abandon) fields.abandon = true;
  const usage = `write it like: ${form.usage}`;
  let trimmed = trimCommas(subject);
  // "create an advantage "High Walls"": the words before the name are the order's.
  if (form.kind === 'advantage') while (trimmed.length > 1 && ['a', 'an', 'the', 'advantage'].includes(trimmed[0]?.word ?? '')) trimmed = trimmed.slice(1);
  // "construct a Silver mine", "siege the water": articles are not part of names.
  if (form.kind === 'construct' || form.kind === 'siege') while (trimmed.length > 1 && ARTICLES.includes(trimmed[0]?.word ?? '')) trimmed = trimmed.slice(1);
  if (trimmed.length) {
    if (!form.subject) return { kind: 'problem', reason: `unexpected "${clipWord(join(trimmed))}"`, hint: usage };
    fields[form.subject.field] = shaped(form.subject.shape, trimmed);
  }
  for (const part of parts) {
    const value = trimCommas(part.tokens);
    if (fields[part.clause.field] !== undefined) return { kind: 'problem', reason: `"${part.keyword}" is given twice`, hint: usage };
    if (!value.length) return { kind: 'problem', reason: `nothing follows "${part.keyword}"`, hint: usage };
    fields[part.clause.field] = shaped(part.clause.shape, value);
  }
  if (form.kind === 'answer' && fields.choice === undefined && trimmed.length > 1) {
    // "answer bandits fight": the event's id is one word; what follows is the choice.
    fields.answer = (trimmed[0] as Token).text;
    fields.choice = join(trimmed.slice(1));
  }
  if (form.kind === 'assault') {
    if (fields.with !== undefined && fields.assault !== undefined) {
      return { kind: 'problem', reason: 'an assault is made by the besieging unit on the settlement it besieges; name only the unit', hint: 'assault with argenta-2 [supported by argenta-3]' };
    }
    if (fields.with !== undefined) fields.assault = fields.with;
    delete fields.with;
  }
  if (!form.clauses.includes(FATE)) {
    const fate = tokens.findIndex((t, i) => t.word === 'fate' && /^\d+$/.test(tokens[i + 1]?.word ?? ''));
    if (fate >= 0) return { kind: 'problem', reason: `${withArticle(form.kind)} order spends no Fate`, hint: usage };
  }
  if (form.kind === 'move' && fields.to === undefined) {
    // "move Iron Guard 12,7": a coordinate is never a unit name, so it is where the unit goes.
    const last = trimmed.at(-1);
    if (last && !last.quoted && /^-?\d+,-?\d+$/.test(last.text)) {
      fields.to = last.text;
      const unit = trimmed.slice(0, -1);
      if (unit.length) fields.move = join(unit);
      else delete fields.move;
    }
  }
  Object.assign(fields, flags);
  const missing = form.required.filter((f) => fields[f] === undefined);
  if (missing.length) return { kind: 'problem', reason: missingText(form, missing), hint: nearKeywordHint(tokens, form) ?? usage };
  return { kind: 'order', fields: ordered(form.kind, fields) };
}

/** The order kind's own key first: the interpreter reads the kind from the first key. */
function ordered(kind: string, fields: RawFields): RawFields {
  const { [kind]: subject, ...rest } = fields;
  return subject === undefined ? rest : { [kind]: subject, ...rest };
}

const MISSING: Record<string, string> = {
  move: 'which unit moves',
  to: 'where to ("to 12,7")',
  target: 'what to attack',
  attack: 'which unit attacks ("with <unit>")',
  protect: 'what to defend',
  defend: 'which unit defends ("with <unit>")',
  rest: 'which unit rests',
  hold: 'which unit holds',
  structure: 'what to construct',
  construct: 'which unit builds it ("with <unit>")',
  name: 'the new settlement\'s name',
  found: 'which unit founds it ("with <unit>")',
  upgrade: 'which settlement to upgrade',
  action: 'which siege action ("destroy battlement" or "poison water")',
  siege: 'which besieging unit acts ("with <unit>")',
  sortie: 'which unit sallies out',
  assault: 'which besieging unit assaults ("with <unit>")',
  answer: 'which event it answers ("answer bandits")',
  explore: 'which unit explores',
  heir: 'who the heir is',
  advantage: 'which aspect to create ("create advantage "High Walls"")',
  with: 'who makes the roll ("with leader" or "with <diplomatic unit>")',
  overcome: 'which aspect to overcome',
  invoke: 'which aspect to invoke',
  on: 'which roll it is for ("on the battle at 25,6")',
};

function missingText(form: Form, missing: string[]): string {
  if (form.kind === 'act') return `this act order does not say ${missing.map((m) => (m === 'action' ? 'which action' : m === 'act' ? 'which unit acts ("with <unit>")' : 'what it aims at ("on <target>")')).join(' or ')}`;
  return `this ${form.kind} order does not say ${missing.map((m) => MISSING[m] ?? m).join(' or ')}`;
}

/** "move Iron Guard ot 12,7": a word one slip away from a keyword the order needs. */
function nearKeywordHint(tokens: Token[], form: Form): string | undefined {
  const keywords = form.clauses.flatMap((c) => c.phrases).filter((p) => !p.includes(' '));
  for (const t of tokens) {
    if (t.quoted || t.word.length < 2 || /\d/.test(t.word) || keywords.includes(t.word)) continue;
    const near = keywords.find((k) => k.length >= 2 && (editDistance(t.word, k) <= 1 || isSwap(t.word, k)));
    if (near) return `did you mean "${near}" instead of "${t.text}"?`;
  }
  return undefined;
}

function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  const [i, j] = diff;
  return diff.length === 2 && i !== undefined && j === i + 1 && a[i] === b[j] && a[j] === b[i];
}

/**
 * build <type> ["name" | named <name>] in <settlement> [with bonus +2 vs cavalry]
 * build structure <structure> in <settlement>
 * build battlement +1 in <settlement>
 */
function readBuild(tokens: Token[]): LineResult {
  const usage = 'write it like: build marines "Iron Guard" in Argentum — build structure academy in Argentum — build battlement +1 in Argentum';
  const { subject, parts } = splitClauses(tokens, [
    { phrases: ['in', 'at'], field: 'build', shape: 'one' },
    { phrases: ['named', 'called'], field: 'name', shape: 'one' },
    { phrases: ['with bonuses', 'with bonus', 'with'], field: 'bonuses', shape: 'list' },
  ]);
  const fields: Record<string, unknown> = {};
  for (const part of parts) {
    const value = trimCommas(part.tokens);
    if (fields[part.clause.field] !== undefined) return { kind: 'problem', reason: `"${part.keyword}" is given twice`, hint: usage };
    if (!value.length) return { kind: 'problem', reason: `nothing follows "${part.keyword}"`, hint: usage };
    fields[part.clause.field] = part.clause.shape === 'list' ? splitList(value).map((b) => b.replace(/^bonus(es)?\s+/i, '')) : join(value);
  }
  if (fields.build === undefined) return { kind: 'problem', reason: 'this build order does not say where ("in <settlement>")', hint: nearKeywordHint(tokens, { kind: 'build', clauses: [{ phrases: ['in'], field: 'build', shape: 'one' }], required: [], usage }) ?? usage };
  let what = trimCommas(subject);
  while (what.length && ['a', 'an', 'one', 'new'].includes(what[0]?.word ?? '')) what = what.slice(1);
  const lead = what[0]?.word ?? '';
  if (!what.length) return { kind: 'problem', reason: 'this build order does not say what to build', hint: usage };
  const settlement = fields.build;
  if (lead === 'structure' || lead === 'building') {
    let name = what.slice(1);
    while (name.length && ['a', 'an', 'the'].includes(name[0]?.word ?? '')) name = name.slice(1);
    if (!name.length) return { kind: 'problem', reason: 'say which structure to build', hint: usage };
    if (fields.name !== undefined || fields.bonuses !== undefined) return { kind: 'problem', reason: 'only units take a name and bonuses', hint: usage };
    return { kind: 'order', fields: { build: settlement, structure: join(name) } };
  }
  if (what.some((t) => /^battlements?$/.test(t.word))) {
    const level = what.filter((t) => !/^(battlements?|level|a|an)$/.test(t.word));
    if (level.length !== 1 || !/^\+?\d{1,3}$/.test(level[0]?.text ?? '')) return { kind: 'problem', reason: 'say which battlement: +1, +2 or +3', hint: 'build battlement +1 in Argentum' };
    if (fields.name !== undefined || fields.bonuses !== undefined) return { kind: 'problem', reason: 'only units take a name and bonuses', hint: usage };
    return { kind: 'order', fields: { build: settlement, battlement: (level[0] as Token).text } };
  }
  const quoted = what.findIndex((t) => t.quoted);
  let type = what;
  if (quoted >= 0) {
    if (quoted === 0 || quoted !== what.length - 1) return { kind: 'problem', reason: 'write the unit type first and its name, in quotes, last', hint: usage };
    if (fields.name !== undefined) return { kind: 'problem', reason: 'the unit is named twice', hint: usage };
    fields.name = (what[quoted] as Token).text;
    type = what.slice(0, quoted);
  }
  const out: RawFields = { build: settlement, unit: join(type) };
  if (fields.name !== undefined) out.name = fields.name;
  if (fields.bonuses !== undefined) out.bonuses = fields.bonuses;
  return { kind: 'order', fields: out };
}

function shaped(shape: Shape, tokens: Token[]): string | string[] {
  if (shape === 'list') return splitList(tokens);
  if (shape === 'path') return splitPath(tokens);
  return join(tokens);
}

function join(tokens: Token[]): string {
  return tokens
    .map((t) => t.text)
    .join(' ')
    .replace(/\s+,/g, ',')
    .trim();
}

function trimCommas(tokens: Token[]): Token[] {
  let a = 0;
  let b = tokens.length;
  while (a < b && tokens[a]?.text === ',') a++;
  while (b > a && tokens[b - 1]?.text === ',') b--;
  return tokens.slice(a, b);
}

/** "argenta-4, argenta-5 and Iron Guard" → three names; quoted names may hold "and". */
function splitList(tokens: Token[]): string[] {
  const items: string[] = [];
  let current: Token[] = [];
  const flush = () => {
    if (current.length) items.push(join(current));
    current = [];
  };
  for (const t of tokens) {
    if (!t.quoted && (t.text === ',' || t.word === 'and' || t.word === '&' || t.word === '+')) flush();
    else current.push(t);
  }
  flush();
  return items;
}

/** "11,7 12,7", "11,7, 12,7", "11,7 -> 12,7", "Silver vein then 9,3": hexes and place names. */
function splitPath(tokens: Token[]): string[] {
  const items: string[] = [];
  let current: Token[] = [];
  const flush = () => {
    if (current.length) items.push(join(current));
    current = [];
  };
  for (const t of tokens) {
    if (!t.quoted && (t.text === ',' || ['and', 'then', '->', '→', '>'].includes(t.word))) flush();
    else if (!t.quoted && /^-?\d+,-?\d+$/.test(t.text)) {
      flush();
      items.push(t.text);
    } else current.push(t);
  }
  flush();
  return items;
}

function clipWord(text: string): string {
  const t = text.trim();
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
}

/** One of the campaign's actions as an order names it after the unit: its verb, its name, its id. */
export interface ActionVerb {
  action: string;
  words: string[];
  /** The action's verb ("spies on"), or its name or id used as one ("espionage"). */
  verb: boolean;
}

/**
 * "Whisperer Lisane spies on Gondarahl [aiming at temple] [fate 1]": a line
 * whose verb is one of the campaign's actions (actions.yaml `verb`, or the
 * action's name or id). Tried only on a line no fixed order fits; undefined
 * when none of the verbs stands on it.
 */
export function actionLine(line: string, verbs: readonly ActionVerb[]): LineResult | undefined {
  const body = normaliseFate(tokenize(line.trim().replace(/[.;]+$/, '')));
  // "I think he spies on us": a sentence, not a unit's order.
  if (SENTENCE_STARTS.has(body[0]?.word ?? '')) return undefined;
  let hit: { at: number; verb: ActionVerb } | undefined;
  for (let i = 1; i < body.length && !hit; i++) {
    const fits = verbs.filter((v) => v.words.every((w, k) => body[i + k]?.word === w && !body[i + k]?.quoted)).sort((a, b) => b.words.length - a.words.length);
    if (fits[0]) hit = { at: i, verb: fits[0] };
  }
  if (!hit) return undefined;
  const unit = trimCommas(body.slice(0, hit.at));
  // "Thanks! I think their envoy spies on us": words of a sentence before the verb, not a unit's name.
  if (unit.some((t) => !t.quoted && (SENTENCE_STARTS.has(t.word) || /[!?]$/.test(t.word)))) return undefined;
  const { subject, parts } = splitClauses(body.slice(hit.at + hit.verb.words.length), [AIM, FATE]);
  const usage = `write it like: <unit> ${hit.verb.words.join(' ')} <target> [aiming at <structure>] [fate 1]`;
  const target = trimCommas(subject);
  if (!target.length) return { kind: 'problem', reason: `this order does not say what the unit ${hit.verb.words.join(' ')}`, hint: usage };
  const fields: RawFields = { act: join(unit), action: hit.verb.action, target: join(target) };
  for (const part of parts) {
    const value = trimCommas(part.tokens);
    if (!value.length) return { kind: 'problem', reason: `nothing follows "${part.keyword}"`, hint: usage };
    if (fields[part.clause.field] !== undefined) return { kind: 'problem', reason: `"${part.keyword}" is given twice`, hint: usage };
    fields[part.clause.field] = join(value);
  }
  return { kind: 'order', fields };
}
