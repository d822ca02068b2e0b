import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { orderText } from '../../src/core/order-text.js';
import type { GameState } from '../../src/core/state.js';
import { acceptedLine, buildReceipt, problemLine } from '../../src/orders/receipt.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, loadAspectWorld } from './world.js';

/**
 * Aspect burning for units and assets (docs/rules.md W24; seed 000 lines
 * 90–92): a battle plan's `burn "<aspect>" for units` or `for an asset in
 * <skill>`, priced by the campaign (`rules.warfare.burn`), read from text and
 * YAML, echoed by the receipt with what the invokes buy, written back.
 */
let campaign: Campaign;
let state: GameState;
beforeAll(async () => {
  ({ campaign, state } = await loadAspectWorld(
    () => [
      { name: 'Old Redoubts', on: { nation: ARGENTA }, owner: ARGENTA, free: 4, since: 1 },
      { name: 'Loyal Hounds', on: { nation: ARGENTA }, owner: ARGENTA, free: 1, since: 1 },
    ],
    { warfare: { enabled: true } },
  ));
});

const receipt = (text: string) => buildReceipt({ campaign, state, sheet: readTextSheet(text), nation: ARGENTA }).receipt;

describe('a battle plan burns an aspect for units or an asset', () => {
  it('reads units and an asset from text and YAML, and writes them back the same', () => {
    const units = interpretSheet(readTextSheet('plan defensive burn "Old Redoubts" for units'), ARGENTA, campaign, state).orders;
    expect(units.refused ?? []).toEqual([]);
    expect(units.orders).toEqual([{ kind: 'battle_plan', stance: 'defensive', burn: { aspect: 'Old Redoubts', for: 'units' } }]);
    expect(orderText(units.orders[0]!)).toBe('plan defensive burn "Old Redoubts" for units');
    const asset = interpretSheet(readTextSheet('plan aggressive burn "Old Redoubts" for an asset in fighting'), ARGENTA, campaign, state).orders;
    expect(asset.orders).toEqual([{ kind: 'battle_plan', stance: 'aggressive', burn: { aspect: 'Old Redoubts', for: 'assets', skill: 'fighting' } }]);
    expect(orderText(asset.orders[0]!)).toBe('plan aggressive burn "Old Redoubts" for an asset in fighting');
    const yaml = interpretSheet(readYamlSheet('orders:\n  - { plan: aggressive, burn: \'"Old Redoubts" for an asset in fighting\' }\n'), ARGENTA, campaign, state).orders;
    expect(yaml.orders).toEqual(asset.orders);
  });

  it('the receipt says what the invokes buy at the campaign\'s prices, and what is left over', () => {
    const r = receipt('plan defensive burn "Old Redoubts" for units');
    expect(r.problems).toEqual([]);
    expect(acceptedLine(r.accepted[0]!)).toContain('"Old Redoubts" is burned: its 4 free invokes buy 1 unit of Militia (3 free invokes a unit) to fight for you in that battle only, the 1 left over is lost with it, and the aspect is gone');
    const a = receipt('plan defensive burn "Old Redoubts" for an asset in tactics');
    expect(acceptedLine(a.accepted[0]!)).toContain('"Old Redoubts" is burned: its 4 free invokes buy 2 assets (2 free invokes an asset), each fortune on your Tactics checks in that battle, and the aspect is gone');
  });

  it('refuses too few free invokes for the price, and an asset without a skill it helps', () => {
    expect(receipt('plan defensive burn "Loyal Hounds" for units').problems.map(problemLine).join('\n')).toMatch(/"Loyal Hounds" has 1 free invoke of yours; a unit costs 3/);
    expect(receipt('plan defensive burn "Old Redoubts" for an asset').problems.map(problemLine).join('\n')).toMatch(/say which skill the asset helps/);
    expect(receipt('plan defensive burn "Old Redoubts" for an asset in cooking').problems.map(problemLine).join('\n')).toMatch(/an asset helps fighting, marksmanship, armor, lore, tactics or athletics, not "cooking"/);
  });
});
