import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOrdersFile } from '../../src/cli/commands/check.js';
import { article } from '../../src/core/prose.js';
import { DEMO, play, type Played } from './support.js';

/**
 * What players and the GM read names things as the rules do: no battle ids (attack:wv-stormwarden), build
 * ids, raw order kinds or field syntax (unit=, build_unit, {"unit": …}), type ids (elite_infantry), and no
 * grammar slips ("a attack", a doubled full stop). Scanned over the demo's turn-1 reports and the receipts
 * of the demo players' mails.
 */
let played: Played;
let receipts: Record<string, string>;
beforeAll(async () => {
  played = await play(DEMO, 1, 'prose');
  const inbox = join(DEMO, 'mail', 'inbox');
  receipts = {};
  // The demo's mails are for turn 1: checked against the state it started from.
  for (const name of readdirSync(inbox).sort()) receipts[name] = (await checkOrdersFile(DEMO, join(inbox, name), { turn: 1 })).text;
});
afterAll(() => played?.cleanup());

/** The text a reader sees: tags, styles and scripts out of HTML, entities decoded. */
function readable(name: string, text: string): string {
  if (!name.endsWith('.html')) return text;
  return text
    .replace(/<(style|script)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&');
}

const ID_PATTERNS: [string, RegExp][] = [
  ['a dice scope or battle id', /\b(?:attack|assault|battle|sortie|siege|pursuit|revolt|external):[a-z0-9-]+/],
  ['a build id', /\bb\d{1,6}\b/],
  ['a raw order kind', /\b(?:build_unit|build_structure|build_battlement|siege_action|order_rejected|destroy_battlement|poison_water)\b/],
  ['field syntax', /\b[a-z][A-Za-z]*=|\{"(?:unit|settlement)":/],
  ['a type or structure id', /\b[a-z]+_[a-z]+(?:_[a-z]+)*\b/],
  ['"unit:" or "structure:" before a name', /\b(?:unit|structure): [A-Za-z]/],
];

/** What the GM is told to write into the GM's own file is file syntax on purpose. */
const GM_FILE_SYNTAX = /\bcomplete_goal\b|\b_gm\.yaml\b/g;

function slips(text: string): string[] {
  const found: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(GM_FILE_SYNTAX, '');
    for (const [what, re] of ID_PATTERNS) if (re.test(line)) found.push(`${what}: ${line.trim()}`);
    for (const m of line.matchAll(/\b(a|an) ([A-Za-z][\w'-]*)/g)) {
      if (m[1]!.toLowerCase() !== article(m[2]!)) found.push(`"${m[0]}": ${line.trim()}`);
    }
    if (/[^.]\.\.(?!\.)/.test(line)) found.push(`a doubled full stop: ${line.trim()}`);
  }
  return found;
}

describe('the prose of the demo', () => {
  it('reports name battles, units, types and orders as the rules do, without slips', () => {
    const reports = played.turns[0]?.reports ?? {};
    const read = Object.entries(reports).filter(([name]) => /\.(txt|html)$/.test(name));
    expect(read.length).toBeGreaterThanOrEqual(10);
    for (const [name, text] of read) expect(slips(readable(name, text)), name).toEqual([]);
  });

  it('receipts too', () => {
    expect(Object.keys(receipts)).toHaveLength(5);
    // A receipt echoes each order as the player wrote it ("  line 12: …"): the player's words, not ours.
    const ours = (text: string) => text.split('\n').filter((l) => !/^ {2}(?:line \d+|-): /.test(l)).join('\n');
    for (const [name, text] of Object.entries(receipts)) expect(slips(ours(text)), name).toEqual([]);
  });

  it('catches what it looks for', () => {
    expect(slips('lost in battle attack:wv-stormwarden')).toHaveLength(1);
    expect(slips('Work began on unit: elite_infantry at 3,3')).toHaveLength(2);
    expect(slips('"x" does not belong to a attack order')).toHaveLength(1);
    expect(slips('what the first Valians knew..')).toHaveLength(1);
    expect(slips('move unit=ar-1 to=3,3')).toHaveLength(1);
    expect(slips('an Iron mine, a unit, a Silver mine, an upgrade, a +1 battlement... and more')).toEqual([]);
  });
});
