import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nationsWithOrderFiles, planOrderFolder, unreadLines } from '../../src/campaign/order-folder.js';

/**
 * The merge of issue 34 (one rule for what an orders folder holds) with issue 35
 * (a caretaker's orders filed as `<nation>.caretaker.yaml`): the folder's rule
 * knows seat files, so no command calls them "not read", and they do not count
 * as the player's own orders (the schedule still sees the seat as silent).
 */
const isNation = (id: string) => ['argenta', 'gondarahl'].includes(id);
const scratch = mkdtempSync(join(tmpdir(), 'order-folder-seats-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('seat files in an orders folder', () => {
  it('are read as a seat policy\'s orders, not named as unread', () => {
    const plan = planOrderFolder(['argenta.caretaker.yaml', 'gondarahl.disorder.yaml', 'gondarahl.txt'], isNation);
    expect(plan.seats).toEqual([
      { name: 'argenta.caretaker.yaml', nation: 'argenta', policy: 'caretaker' },
      { name: 'gondarahl.disorder.yaml', nation: 'gondarahl', policy: 'disorder' },
    ]);
    expect(plan.orders).toEqual([{ name: 'gondarahl.txt', nation: 'gondarahl', format: 'text' }]);
    expect(plan.clashes).toEqual([]);
    expect(unreadLines(plan, 'orders/0003')).toEqual([]);
  });

  it('of a nation not in the campaign, or of no known policy, are named as unread', () => {
    const plan = planOrderFolder(['erebor.caretaker.yaml', 'argenta.regent.yaml'], isNation);
    expect(plan.seats).toEqual([]);
    expect(plan.unread.map((u) => u.name)).toEqual(['argenta.regent.yaml', 'erebor.caretaker.yaml']);
  });

  it('do not count as the nation\'s own orders', async () => {
    for (const name of ['argenta.caretaker.yaml', 'gondarahl.yml']) writeFileSync(join(scratch, name), 'orders: []\n');
    expect(await nationsWithOrderFiles(scratch, isNation)).toEqual(['gondarahl']);
  });
});
