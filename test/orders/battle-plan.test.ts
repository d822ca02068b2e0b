import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { orderText } from '../../src/core/order-text.js';
import type { GameState } from '../../src/core/state.js';
import { acceptedLine, buildReceipt, problemLine } from '../../src/orders/receipt.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, loadWorld } from './world.js';

/**
 * The battle plan (docs/orders.md, "Battle plans"; docs/rules.md W13): what a
 * nation's automated commanders follow in its Warfare battles this turn,
 * read the same from text and YAML and echoed by the receipt.
 */
let campaign: Campaign;
let off: Campaign;
let state: GameState;
beforeAll(async () => {
  const world = await loadWorld();
  off = world.open.campaign;
  campaign = { ...off, rules: { ...off.rules, warfare: { ...off.rules.warfare, enabled: true } } };
  state = structuredClone(world.state);
});

const linesOf = (text: string, c = campaign) => {
  const r = buildReceipt({ campaign: c, state, sheet: readTextSheet(text), nation: ARGENTA }).receipt;
  return [...r.accepted.map(acceptedLine), ...r.problems.map(problemLine)];
};

describe('the battle plan order', () => {
  it('reads the same from a text line and from YAML, and writes back to the same order', () => {
    const a = interpretSheet(readTextSheet('plan defensive withdraw at 2 on tie stress'), ARGENTA, campaign, state).orders;
    const b = interpretSheet(readYamlSheet('orders:\n  - { plan: defensive, withdraw: 2, tie: stress }\n'), ARGENTA, campaign, state).orders;
    expect(a.refused ?? []).toEqual([]);
    expect(a.orders).toEqual([{ kind: 'battle_plan', stance: 'defensive', withdrawAt: 2, onTie: 'stress' }]);
    expect(b.orders).toEqual(a.orders);
    expect(orderText(a.orders[0]!)).toBe('plan defensive withdraw at 2 on tie stress');
    expect(interpretSheet(readTextSheet('plan aggressive'), ARGENTA, campaign, state).orders.orders).toEqual([{ kind: 'battle_plan', stance: 'aggressive' }]);
  });

  it('is echoed by the receipt in words', () => {
    expect(linesOf('plan aggressive withdraw at 1')).toEqual([
      'line 1: Battle plan for your Warfare battles this turn: aggressive — your commanders seek the enemy (attacking: the strategic zone); they withdraw with 1 unit or fewer left; a tie is bought with a minor advantage to the other side',
    ]);
  });

  it('is refused precisely: an unknown stance or tie, a second plan, a campaign without Warfare', () => {
    const lines = linesOf('plan cautious\nplan defensive on tie maybe\nplan defensive withdraw at lots\nplan aggressive\nplan defensive');
    expect(lines.slice(0, 1)).toEqual(['line 4: Battle plan for your Warfare battles this turn: aggressive — your commanders seek the enemy (attacking: the strategic zone); they fight to the last; a tie is bought with a minor advantage to the other side']);
    expect(lines.join('\n')).toContain('a battle plan\'s stance is "aggressive" or "defensive", not "cautious"');
    expect(lines.join('\n')).toContain('on a tie a commander gives a "boost" to the other side, takes a "stress" card or lets it "fail", not "maybe"');
    expect(lines.join('\n')).toContain('"withdraw" is the number of units left at which the side leaves the field, not "lots"');
    expect(lines.join('\n')).toContain('one battle plan a turn');
    expect(linesOf('plan aggressive', off).join('\n')).toContain('Warfare is off in this campaign');
  });

  it('names a target and a reserve, from text and YAML, echoed in words and written back', () => {
    const a = interpretSheet(readTextSheet('plan defensive target archers reserve cavalry until exchange 5'), ARGENTA, campaign, state).orders;
    const b = interpretSheet(readYamlSheet('orders:\n  - { plan: defensive, target: Archers, reserve: cavalry, until: 5 }\n'), ARGENTA, campaign, state).orders;
    expect(a.refused ?? []).toEqual([]);
    expect(a.orders).toEqual([{ kind: 'battle_plan', stance: 'defensive', target: 'archers', reserve: 'cavalry', reserveUntil: 5 }]);
    expect(b.orders).toEqual(a.orders);
    expect(orderText(a.orders[0]!)).toBe('plan defensive target archers reserve cavalry until 5');
    expect(interpretSheet(readTextSheet('plan aggressive in reserve 2 units target the commanders'), ARGENTA, campaign, state).orders.orders).toEqual([{ kind: 'battle_plan', stance: 'aggressive', reserve: 2, target: 'commander' }]);
    expect(linesOf('plan defensive target archers reserve cavalry until 5')).toEqual([
      'line 1: Battle plan for your Warfare battles this turn: defensive — your commanders hold the strategic zone (attacking: advance on it); they fight to the last; a tie is bought with a minor advantage to the other side; they strike at Archers first; your cavalry held in reserve until exchange 5',
    ]);
    expect(linesOf('plan aggressive target commander reserve 1')).toEqual([
      'line 1: Battle plan for your Warfare battles this turn: aggressive — your commanders seek the enemy (attacking: the strategic zone); they fight to the last; a tie is bought with a minor advantage to the other side; they attack the enemy commanders in person when they meet them; 1 unit held in reserve until exchange 4',
    ]);
  });

  it('refuses a target the catalogue lacks (naming what it has), a reserve that is neither a number nor a class, and "until" without a reserve', () => {
    const lines = linesOf('plan defensive target dragons\nplan defensive reserve lots\nplan defensive until 5\nplan defensive reserve 2 until 1').join('\n');
    expect(lines).toContain('no Warfare unit type "dragons" to target');
    expect(lines).toContain('target one of: archers, battleMages, cannons, catapults, cavalry, infantry, militia, warships; or "commander"');
    expect(lines).toContain('"reserve" is a number of units or a class (infantry, cavalry, siege, naval), not "lots"');
    expect(lines).toContain('"until" says when the reserve joins the battle: name the reserve too');
    expect(lines).toContain('"until" is the exchange the reserve joins the battle (2 or later), not "1"');
  });
});
