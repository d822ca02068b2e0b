import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOrdersFile } from '../../src/cli/commands/check.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { cleanupAll, demoCopy } from '../mailroom/support.js';

/** `fatecraft check --turn N`: a sheet for a turn already resolved, checked against the state before it (to prepare a rerun). */
afterAll(cleanupAll);

describe('check --turn', () => {
  it('gives for a resolved turn the receipt the sheet had before the turn resolved', async () => {
    const { root, dir } = demoCopy('check-turn');
    const sheet = join(root, 'argenta-fixed.yaml');
    copyFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), sheet);
    const before = await checkOrdersFile(dir, sheet);
    expect(before.receipt).toMatchObject({ pendingTurn: 1, turn: 1, turnStatus: 'pending', replacesEarlier: true });

    await runTurn(dir, { expectTurn: 1 });
    // By default the sheet is checked for the pending turn 2, from the state after turn 1: it is for a past turn.
    expect((await checkOrdersFile(dir, sheet)).receipt).toMatchObject({ pendingTurn: 2, turnStatus: 'past' });
    const again = await checkOrdersFile(dir, sheet, { turn: 1 });
    expect(again.receipt).toEqual(before.receipt);
    expect(again.text).toBe(before.text.replace('\n', '\nChecked against the state before turn 1, which is resolved (the pending turn is 2): for fatecraft rerun.\n'));
  });

  it('refuses a turn that is not open yet, or turn 0', async () => {
    const { dir } = demoCopy('check-turn-refused');
    const sheet = join(dir, 'orders', '0001', 'argenta.yaml');
    await expect(checkOrdersFile(dir, sheet, { turn: 2 })).rejects.toThrow('--turn 2: turn 2 is not open yet (the pending turn is 1)');
    await expect(checkOrdersFile(dir, sheet, { turn: 0 })).rejects.toThrow('--turn 0: turn 0 is the starting position: no orders are given for it');
  });
});
