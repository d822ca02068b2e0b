import type { SheetHeader } from './sheet.js';

/**
 * The vocabulary of plain-text order lines as data: each order's verb, the keywords that separate its
 * parts, what it requires, and how its usage reads. text-line.ts reads a line against these forms.
 */

export type Shape = 'one' | 'list' | 'path';

export interface Clause {
  /** Keyword phrases, lower case, longest first when matched. */
  phrases: string[];
  field: string;
  shape: Shape;
}

export interface Form {
  kind: string;
  /** Field the words before the first keyword fill; undefined: nothing may stand there. */
  subject?: { field: string; shape: Shape };
  clauses: Clause[];
  required: string[];
  usage: string;
}

export const FATE: Clause = { phrases: ['fate'], field: 'fate', shape: 'one' };
export const AIM: Clause = { phrases: ['aiming at', 'aimed at', 'aim at', 'aiming for'], field: 'aim', shape: 'one' };
const LOSSES: Clause = { phrases: ['casualties', 'losses', 'loss order', 'losing first'], field: 'casualties', shape: 'list' };
/** The unit that carries the order out: "with argenta-2", "using", "by". */
const by = (field: string): Clause => ({ phrases: ['with', 'using', 'by'], field, shape: 'one' });
const SUPPORT: Clause = { phrases: ['supported by', 'with support from', 'support', 'supporting', 'backed by'], field: 'support', shape: 'list' };

/** Orders written verb first: "move <unit> to <hex>". */
export const VERB_FIRST: Record<string, Form> = {
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
    usage: 'plan aggressive [withdraw at 2] [on tie stress] [target archers|commander] [reserve 2|cavalry [until 5]] [field deep|wide] [obstacles ahead|flanks|far|none] [burn "<aspect>" for zones|obstacles|units|an asset in <skill>] — the battle plan of your Warfare battles this turn',
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
export const SUBJECT_FIRST: Record<string, Form> = {
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
export const SENTENCE_STARTS = new Set(['please', 'kindly', 'i', 'we', 'you', 'they', 'he', 'she', 'it', 'then', 'and', 'also', 'now', 'let', "let's", 'lets', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'must', 'do', "don't", 'dont', 'not', 'never', 'all', 'my', 'our']);

export const SUBJECT_BASE_FORMS: Record<string, string> = {
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

export const VERB_ALIASES: Record<string, string> = { go: 'move', march: 'move', sail: 'move', besiege: 'attack', protect: 'defend', raze: 'attack', destroy: 'attack' };
export const SUBJECT_ALIASES: Record<string, string> = { marches: 'moves', sails: 'moves', goes: 'moves', besieges: 'attacks', protects: 'defends', razes: 'attacks', destroys: 'attacks' };
/** "raze the mine at 9,4 with Iron Guard": an attack on a structure that destroys it rather than take it (docs/rules.md X3). */
export const RAZING = new Set(['raze', 'destroy', 'razes', 'destroys']);
export const HEADERS: Record<string, SheetHeader> = { nation: 'nation', turn: 'turn', token: 'token', casualties: 'casualties', losses: 'casualties' };

export const SUBJECT_VERBS = [...Object.keys(SUBJECT_FIRST), ...Object.keys(SUBJECT_ALIASES)];

/** The Fate layer's verbs (rules.fate.aspects) and Warfare's plan (rules.warfare), off by default: suggested for slips, not listed to every player. */
export const FATE_VERBS = ['create', 'overcome', 'invoke', 'plan'];

/** Every word a line may start with, for "did you mean". */
export const LINE_KEYWORDS = [...Object.keys(VERB_FIRST).filter((v) => !FATE_VERBS.includes(v)), 'build', 'note', 'press', 'accept', 'hunt', ...Object.keys(HEADERS).filter((h) => h !== 'losses')];

export const ARTICLES = ['a', 'an', 'the'];

export const HEADER_USAGE: Record<SheetHeader, string> = {
  nation: 'Nation: argenta',
  turn: 'Turn: 4',
  token: 'Token: <the secret token from your turn report>',
  casualties: 'Casualties: argenta-4, Iron Guard',
};

export const PRESS_USAGE = 'press to Gondarahl: We want peace — or: press to all: … — or: press unsigned to Borea: …';

/** Words that may follow "abandoning" at the end of a line: "abandoning the work", "abandoning its siege". */
export const ABANDON_TAIL = ['the', 'its', 'their', 'work', 'siege', 'build', 'site'];

/** Words that may end an invoke line: how it is paid and whether it re-rolls ("… free", "… with fate reroll"). */
export const INVOKE_TAIL = new Set(['free', 'fate', 'paid', 'paying', 'reroll', 're-roll', 'rerolling', 'and', 'with', 'for', 'using', 'a', 'invoke', 'point', 'spending']);

export const MISSING: Record<string, string> = {
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
