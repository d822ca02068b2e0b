import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { orderText } from '../../src/core/order-text.js';
import type { GameState } from '../../src/core/state.js';
import { acceptedLine, buildReceipt, problemLine } from '../../src/orders/receipt.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { ARGENTA, loadAspectWorld } from './world.js';

/**
 * A battle plan's battlefield, obstacles and aspect burning (docs/orders.md,
 * "Battle plans"; docs/rules.md W23–W24): read from a text line, echoed by
 * the receipt, written back the same; a burn needs free invokes of one's own.
 */
let campaign: Campaign;
let state: GameState;
beforeAll(async () => {
  ({ campaign, state } = await loadAspectWorld(() => [{ name: 'Old Redoubts', on: { nation: ARGENTA }, owner: ARGENTA, free: 2, since: 1 }], { warfare: { enabled: true } }));
});

const receipt = (text: string) => buildReceipt({ campaign, state, sheet: readTextSheet(text), nation: ARGENTA }).receipt;

describe('a battle plan builds the field and burns aspects', () => {
  it('reads field, obstacles and burn, and the receipt says what they do', () => {
    const r = receipt('plan defensive field deep obstacles ahead burn "Old Redoubts" for obstacles');
    expect(r.problems).toEqual([]);
    const line = acceptedLine(r.accepted[0]!);
    expect(line).toContain('they build the field deep (a long approach) with the other side');
    expect(line).toContain('defending, they place their obstacles ahead of the strategic zone');
    expect(line).toContain('"Old Redoubts" is burned: its 2 free invokes become 2 obstacles, and the aspect is gone');
    const order = interpretSheet(readTextSheet('plan defensive field deep obstacles ahead burn "Old Redoubts" for obstacles'), ARGENTA, campaign, state).orders.orders[0]!;
    expect(orderText(order)).toBe('plan defensive field deep obstacles ahead burn "Old Redoubts" for obstacles');
  });

  it('refuses an unknown shape, and a burn of an aspect without free invokes of one\'s own', () => {
    expect(receipt('plan aggressive field round').problems.map(problemLine).join('\n')).toMatch(/"field" is grid, deep or wide, not "round"/);
    expect(receipt('plan aggressive burn "Nowhere" for zones').problems.map(problemLine).join('\n')).toMatch(/there is no aspect "Nowhere" that you know of/);
  });
});
