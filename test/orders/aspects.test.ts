import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { asNationId, asSettlementId } from '../../src/core/ids.js';
import { orderText } from '../../src/core/order-text.js';
import type { GameState } from '../../src/core/state.js';
import { acceptedLine, buildReceipt, problemLine, type OrderReceipt } from '../../src/orders/receipt.js';
import { interpretSheet, type OrderSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, loadAspectWorld, loadWorld } from './world.js';

/**
 * The Fate layer's orders (docs/orders.md, "Aspects"): create advantage,
 * overcome and invoke read the same from text and YAML, the receipt echoes
 * each invoke with its cost, and every mistake gets a precise refusal.
 */
let campaign: Campaign;
let state: GameState;
beforeAll(async () => {
  ({ campaign, state } = await loadAspectWorld(() => [
    { name: 'High Walls', on: { settlement: asSettlementId('argentum') }, owner: ARGENTA, free: 2, since: 1 },
    { name: 'Proud Dwarves', on: { nation: asNationId('gondarahl') }, free: 0, since: 1 },
    { name: 'Hidden Gold', on: { nation: asNationId('gondarahl') }, owner: asNationId('gondarahl'), free: 1, secret: true, since: 1 },
  ]));
});

const receiptOf = (sheet: OrderSheet, c = campaign): OrderReceipt => buildReceipt({ campaign: c, state, sheet, nation: ARGENTA }).receipt;
const linesOf = (text: string, c = campaign) => {
  const r = receiptOf(readTextSheet(text), c);
  return [...r.accepted.map(acceptedLine), ...r.problems.map(problemLine)];
};

describe('aspect orders', () => {
  it('read the same from a text line and from YAML, and write back to the same order', () => {
    const text = readTextSheet(
      [
        'create advantage "Eyes in Kharduum" with leader on Kharduum',
        'create an advantage "Safe Roads" with argenta-8 on Highmoor',
        'overcome "Proud Dwarves" with leader',
        'invoke "High Walls" on the battle at 5,6',
        'invoke "High Walls" on the assault on Argentum with fate reroll',
        'invoke "Proud Dwarves" on the siege of Stonehold paid',
      ].join('\n'),
    );
    const yaml = readYamlSheet(`orders:
  - { advantage: Eyes in Kharduum, with: leader, on: Kharduum }
  - { advantage: Safe Roads, with: argenta-8, on: Highmoor }
  - { overcome: Proud Dwarves, with: leader }
  - { invoke: High Walls, on: "the battle at 5,6" }
  - { invoke: High Walls, on: the assault on Argentum, pay: fate, reroll: true }
  - { invoke: Proud Dwarves, on: the siege of Stonehold, pay: fate }
`);
    const a = interpretSheet(text, ARGENTA, campaign, state).orders;
    const b = interpretSheet(yaml, ARGENTA, campaign, state).orders;
    expect(a.refused ?? []).toEqual([]);
    expect(a.orders).toEqual(b.orders);
    expect(a.orders[0]).toEqual({ kind: 'create_advantage', aspect: 'Eyes in Kharduum', by: { leader: true }, on: { settlement: 'kharduum' } });
    expect(a.orders[4]).toEqual({ kind: 'invoke', aspect: 'High Walls', on: { assault: 'argentum' }, pay: 'fate', reroll: true });
    const again = interpretSheet(readTextSheet(a.orders.map((o) => orderText(o)).join('\n')), ARGENTA, campaign, state).orders;
    expect(again.orders).toEqual(a.orders);
  });

  it('echo each invoke with what it costs, and each roll with its odds', () => {
    expect(linesOf('invoke "High Walls" on the battle at 5,6\ninvoke "high walls" on the battle at 5,6 fate reroll\ninvoke "Proud Dwarves" on the siege of Stonehold')).toEqual([
      'line 1: Invokes "High Walls" on the battle at 5,6 for +2: a free invoke (of 2)',
      'line 2: Invokes "High Walls" on the battle at 5,6 for re-roll if behind: 1 Fate',
      'line 3: Invokes "Proud Dwarves" on the siege of Stonehold for +2: 1 Fate, paid to Kingdom of Gondarahl when invoked against it',
    ]);
    expect(linesOf('create advantage "Safe Roads" with argenta-8 on Highmoor')).toEqual([
      'line 1: Construction worker (argenta-8) creates the advantage "Safe Roads" on Highmoor: 4dF + 1 against +2 Fair (fail: nothing; tie: a boost; success: 1 free invoke; with style: 2)',
    ]);
  });

  it('refuse an unknown aspect with did-you-mean, a secret one like an unknown one, and a spent free invoke', () => {
    expect(linesOf('invoke "High Wall" on the battle at 5,6')).toEqual(['line 1: "invoke "High Wall" on the battle at 5,6": there is no aspect "High Wall" that you know of — did you mean "High Walls"?']);
    expect(linesOf('invoke "Hidden Gold" on the battle at 5,6')).toEqual([
      'line 1: "invoke "Hidden Gold" on the battle at 5,6": there is no aspect "Hidden Gold" that you know of — valid: aspects you know of: "High Walls", "Proud Dwarves"',
    ]);
    const three = linesOf(['invoke "High Walls" on the battle at 5,6', 'invoke "High Walls" on the battle at 5,6', 'invoke "High Walls" on the battle at 5,6 free'].join('\n'));
    expect(three[2]).toBe('line 3: "invoke "High Walls" on the battle at 5,6 free": over the limit: "High Walls" has 2 free invokes, spent by the lines above (add "fate" to pay for this one)');
  });

  it('refuse the same aspect paid twice on one roll, Fate the nation does not have, and a unit that is not diplomatic', () => {
    const twice = linesOf('invoke "Proud Dwarves" on the battle at 7,6\ninvoke "Proud Dwarves" on the battle at 7,6');
    expect(twice[1]).toContain('over the limit: "Proud Dwarves" is invoked with Fate once on the battle at 7,6 (an aspect is invoked once a roll; only free invokes stack)');
    const seven = Array.from({ length: 7 }, (_, i) => `invoke "Proud Dwarves" on the battle at ${i},0`).join('\n');
    expect(linesOf(seven).at(-1)).toBe('line 7: "invoke "Proud Dwarves" on the battle at 6,0": pledges 1 Fate; only 0 left after the orders above');
    expect(linesOf('create advantage "Iron Will" with argenta-1')).toEqual([
      'line 1: "create advantage "Iron Will" with argenta-1": Marines \'Iron Guard\' (argenta-1) is not a diplomatic unit — valid: the leader ("with leader") or a diplomatic unit makes these rolls',
    ]);
    expect(linesOf('create advantage "Safe Roads" with argenta-8 on Argentum')[0]).toContain('is too far from Argentum (at 2,4)');
  });

  it('are refused while rules.fate.aspects is off', async () => {
    const off = (await loadWorld()).open.campaign;
    expect(linesOf('invoke "High Walls" on the battle at 5,6', off)).toEqual([
      'line 1: "invoke "High Walls" on the battle at 5,6": aspects are not used in this campaign — valid: the GM turns them on with rules.fate.aspects',
    ]);
  });
});
