import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reassignNation } from '../../src/gm/nations.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { ADDRESSES, demoCopy } from '../mailroom/support.js';
import { RESOLVE, schedule, ticker, useSecretsFile } from '../seats/support.js';

/**
 * `fatecraft nation reassign` starts the new player's tenure in the seat record (runtime.yaml `seats:`,
 * issue 35), in the same whole operation: the old player's record ends with the turn before, and the new
 * player's turns are never counted to the old one. The old code left the old tenure running, so the new
 * player's turns went on the old player's record.
 */
const setSecrets = useSecretsFile();
const NEW = 'new.warchief@grarkul.test';

describe('a seat reassigned by the GM', { timeout: 200_000 }, () => {
  it('starts the new player\'s tenure', async () => {
    const { dir } = demoCopy('reassign-record');
    writeFileSync(join(dir, 'campaign.yaml'), readFileSync(join(dir, 'campaign.yaml'), 'utf8') + schedule('  policy: hold\n'));
    setSecrets('reassign-record');
    const { clock, at } = ticker(dir, '2025-03-20T12:00:00Z');
    await at('2025-03-20T12:00:00Z');
    expect((await at(RESOLVE[1]!)).resolved).toEqual([1]);
    expect((await readRuntime(dir))!.seats?.grarkul).toEqual([expect.objectContaining({ player: [ADDRESSES.grarkul], fromTurn: 1 })]);

    clock.set('2025-03-24T09:00:00Z');
    await reassignNation(dir, 'grarkul', { clock, email: [NEW] });
    expect((await readRuntime(dir))!.seats?.grarkul).toEqual([
      expect.objectContaining({ player: [ADDRESSES.grarkul], fromTurn: 1, toTurn: 1 }),
      expect.objectContaining({ player: [NEW], fromTurn: 2, onTime: 0, missed: 0 }),
    ]);
  });
});
