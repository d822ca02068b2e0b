import { describe, expect, it } from 'vitest';
import { gmOrdersSchema } from '../../src/campaign/schema.js';
import type { Campaign } from '../../src/core/campaign.js';
import type { LoggedEvent } from '../../src/core/events.js';
import { asHexKey, asNationId, asUnitId } from '../../src/core/ids.js';
import { FATE_LADDER, ladderText, parseLadder } from '../../src/core/ladder.js';
import { DEFAULT_RULES } from '../../src/core/settings.js';
import { describeEvent } from '../../src/report/describe.js';
import type { Namer } from '../../src/report/namer.js';

/** The ladder (seed 002 lines 1–23; docs/rules.md F7): read in either form, written with its word unless the campaign turns words off. */
describe('the ladder', () => {
  it('has the eleven steps of the seed, +8 Legendary to -2 Terrible', () => {
    expect(Object.keys(FATE_LADDER).map(Number).sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect([FATE_LADDER[8], FATE_LADDER[4], FATE_LADDER[0], FATE_LADDER[-2]]).toEqual(['Legendary', 'Great', 'Mediocre', 'Terrible']);
  });

  it('writes a value as "Great (+4)", and a number off the ladder bare', () => {
    expect([ladderText(4), ladderText(0), ladderText(-1), ladderText(-3), ladderText(9)]).toEqual(['Great (+4)', 'Mediocre (+0)', 'Poor (-1)', '-3', '+9']);
  });

  it('reads a number, a signed number, a word, or a word with its number — any case, a typographic minus too', () => {
    for (const [text, n] of [[4, 4], ['4', 4], ['+4', 4], ['Great', 4], ['great (+4)', 4], ['Great(+4)', 4], ['Poor (−1)', -1], ['-2', -2], ['Mediocre', 0]] as const) expect(parseLadder(text), String(text)).toBe(n);
  });

  it('refuses a word it does not know, a word and number that disagree, and a fraction', () => {
    for (const text of ['Awesome', 'Great (+3)', '4.5', 4.5, '', 'Great +4']) expect(parseLadder(text), String(text)).toBeUndefined();
  });
});

describe('ladder values in the GM’s forced dice', () => {
  it('takes numbers and ladder words, and says what it takes when wrong', () => {
    const ok = gmOrdersSchema.safeParse({ turn: 1, actions: [{ kind: 'roll', scope: 'battle:attack:a', values: ['Great (+4)', -2, '+1', 'Mediocre', 6] }] });
    expect(ok.success && ok.data.actions[0]).toEqual({ kind: 'roll', scope: 'battle:attack:a', values: [4, -2, 1, 0, 6] });
    const bad = gmOrdersSchema.safeParse({ turn: 1, actions: [{ kind: 'roll', scope: 'x', values: ['Awesome'] }] });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain('a ladder word (Great, Great (+4))');
  });
});

describe('ladder words in reports', () => {
  const explored: LoggedEvent = { seq: 1, phase: 'explore', type: 'explore_roll', nations: [asNationId('a')], nation: asNationId('a'), unit: asUnitId('u'), at: asHexKey('1,1'), beat: 3, roll: { die: 'd6', value: 5 }, fateSpent: 0, modifier: 0, total: 5, found: false };
  const namer = (ladderWords: boolean) => ({ campaign: { rules: { ...DEFAULT_RULES, fate: { ...DEFAULT_RULES.fate, ladderWords } } } as Campaign, unit: (id: string) => id, nationName: (id: string) => id }) as unknown as Namer;

  it('writes the number to beat with its word by default', () => {
    expect(describeEvent(explored, namer(true))).toBe('u explored around 1,1: d6 5 = 5 against Good (+3) to beat — a good search, but nothing is hidden there.');
  });

  it('writes it bare with rules.fate.ladderWords off', () => {
    expect(describeEvent(explored, namer(false))).toBe('u explored around 1,1: d6 5 = 5 against 3 to beat — a good search, but nothing is hidden there.');
  });
});
