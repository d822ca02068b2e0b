import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import type { GameState } from '../../src/core/state.js';
import { acceptedLine, buildReceipt, problemLine } from '../../src/orders/receipt.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { ARGENTA, loadWorld } from './world.js';

/**
 * Nothing a player writes is silently dropped (issue 36; docs/rules.md W20):
 * an order that carries a pledge, a loss order or an invoke into a battle
 * that may be fought as Warfare says in its receipt what becomes of them
 * there — not only `attack`, but `hold`, `defend`, `assault` and `invoke`.
 */
let off: Campaign;
let on: Campaign;
let state: GameState;
beforeAll(async () => {
  const world = await loadWorld();
  off = world.open.campaign;
  const rules = off.rules;
  on = { ...off, rules: { ...rules, fate: { ...rules.fate, aspects: true }, warfare: { ...rules.warfare, enabled: true, assaults: true } } };
  off = { ...off, rules: { ...rules, fate: { ...rules.fate, aspects: true } } };
  state = structuredClone(world.state);
  state.aspects = [{ name: 'Old Redoubts', on: { nation: ARGENTA }, owner: ARGENTA, free: 2, since: 1 }];
});

const linesOf = (text: string, c = on) => {
  const r = buildReceipt({ campaign: c, state, sheet: readTextSheet(text), nation: ARGENTA }).receipt;
  return [...r.accepted.map(acceptedLine), ...r.problems.map(problemLine)];
};

const SPENT = 'your commanders spend the Fate pledged as fate points, one an invoke, and the rest stays with you';

describe('receipts of orders that may meet a Warfare battle', () => {
  it('a hold and a defend with a pledge say what becomes of the pledge there', () => {
    const [hold, defend] = linesOf('hold argenta-1 fate 2\ndefend Iron Guard with argenta-4 fate 1');
    expect(hold).toContain('pledging 2 Fate if attacked');
    expect(hold).toContain('a battle at 5,6 is fought as Warfare when each side brings 3 units or more');
    expect(hold).toContain(SPENT);
    expect(defend).toContain('pledging 1 Fate');
    expect(defend).toContain(SPENT);
  });

  it('an assault says what becomes of its pledge and its loss order, when assaults may be fought as Warfare', () => {
    const rules = on.rules;
    // Stonehold (8,4), besieged by argenta-10 alone: only the GM's flag makes its assault Warfare.
    expect(linesOf('assault with argenta-10 fate 2 losses argenta-10')[0]).not.toContain('Warfare');
    const flagged = { ...on, rules: { ...rules, warfare: { ...rules.warfare, hexes: ['8,4'] } } };
    const [line] = linesOf('assault with argenta-10 fate 2 losses argenta-10', flagged);
    expect(line).toContain('fought as Warfare');
    expect(line).toContain(SPENT);
    expect(line).toContain('the loss order does not apply there');
    const noAssaults = { ...flagged, rules: { ...flagged.rules, warfare: { ...flagged.rules.warfare, assaults: false } } };
    expect(linesOf('assault with argenta-10 fate 2', noAssaults)[0]).not.toContain('Warfare');
  });

  it('an invoke on a battle says how the commanders spend it there', () => {
    const [plus, reroll] = linesOf('invoke "Old Redoubts" on the battle at 5,6\ninvoke "Old Redoubts" on the battle at 5,6 reroll');
    expect(plus).toContain('if that battle is fought as Warfare, your commanders spend it only on a check it turns (+2), or not at all');
    expect(reroll).toContain('if that battle is fought as Warfare, your commanders spend it only for another card on a check it may turn, or not at all');
  });

  it('say nothing of Warfare where no battle can be fought that way, or nothing is pledged', () => {
    expect(linesOf('hold argenta-1 fate 2', off)[0]).not.toContain('Warfare');
    expect(linesOf('hold argenta-1')[0]).not.toContain('Warfare');
    expect(linesOf('invoke "Old Redoubts" on the battle at 5,6', off)[0]).not.toContain('Warfare');
    const rules = on.rules;
    const big = { ...on, rules: { ...rules, warfare: { ...rules.warfare, minUnitsPerSide: 9 } } };
    expect(linesOf('hold argenta-1 fate 2', big)[0]).not.toContain('Warfare');
    const flagged = { ...big, rules: { ...big.rules, warfare: { ...big.rules.warfare, hexes: ['5,6'] } } };
    expect(linesOf('hold argenta-1 fate 2', flagged)[0]).toContain("the battle at 5,6 is fought as Warfare (the GM's flag)");
  });
});
