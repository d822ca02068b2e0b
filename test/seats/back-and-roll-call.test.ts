import type { NationId } from '../../src/core/ids.js';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { ADDRESSES, demoCopy } from '../mailroom/support.js';
import { writeOrders } from '../schedule/support.js';
import { folderPost, OTHERS, RESOLVE, schedule, ticker, useSecretsFile } from './support.js';

/**
 * Seats by mail, the other half (issue 35): a player back from the caretaker takes the nation back with one
 * "back" mail and is told what was done in their name; before turn 1, players confirm with "ready" (or
 * orders), the GM hears of the silent seats at the roll-call, and with seats.autofill a silent seat is
 * offered to the standby list by itself. Through the folder transport.
 */
const setSecrets = useSecretsFile();

function campaign(label: string, extra: string): string {
  const { dir } = demoCopy(label);
  writeFileSync(join(dir, 'campaign.yaml'), readFileSync(join(dir, 'campaign.yaml'), 'utf8') + extra);
  setSecrets(label);
  return dir;
}

describe('seats by mail', { timeout: 400_000 }, () => {
  it('"back": the nation is its player\'s again with one mail, and the answer says what was done in their name', async () => {
    const dir = campaign('back', schedule('  policy: caretaker\n'));
    const post = folderPost(dir);
    const { at } = ticker(dir, '2025-03-20T12:00:00Z');
    await at('2025-03-20T12:00:00Z');
    for (let turn = 1; turn <= 5; turn++) {
      if (turn > 1) writeOrders(dir, turn, OTHERS);
      expect((await at(RESOLVE[turn]!)).resolved).toEqual([turn]);
    }
    // Turns 4 and 5 were the caretaker's; the player writes "back" during turn 6.
    await post.send({ from: ADDRESSES.grarkul!, subject: 'back', text: "I'm back.\n" });
    await at('2025-04-22T10:00:00Z');
    const answer = (await post.received(ADDRESSES.grarkul!)).at(-1)!;
    expect(answer.text).toContain('Welcome back! Your nation is yours again: for turn 6 your forces hold where they stand unless you send orders, which replace this.');
    expect(answer.text).toContain('What was done in your name while you were away:\n  Turn 4 (the caretaker):');
    expect(answer.text).toContain('  Turn 5 (the caretaker):');
    expect(readFileSync(join(dir, 'orders', '0006', 'grarkul.yaml'), 'utf8')).toMatch(/^# grarkul is back \(mail from warchief@grarkul\.test/);
    writeOrders(dir, 6, OTHERS);
    expect((await at(RESOLVE[6]!)).resolved).toEqual([6]);
    const { campaign: c } = await openCampaign(dir);
    const state = await readState(dir, 6, c);
    expect(state.nations['grarkul' as NationId]!.seat).toBeUndefined();
    expect(state.nations['grarkul' as NationId]!.missedTurns).toBe(0);
    expect(readFileSync(join(dir, 'turns', '0006', 'reports', 'argenta.txt'), 'utf8')).toContain('The Grarkul Tribes is heard from again: its ruler has returned.');
  });

  it('roll-call: "ready" or first orders confirm a seat; the GM hears of the silent ones; autofill offers them to the standby list', async () => {
    const dir = campaign('roll-call', schedule('  policy: caretaker\n  autofill: true\n', '  rollCall: 72h\n'));
    // No orders on file for turn 1: every seat must confirm.
    for (const name of readdirSync(join(dir, 'orders', '0001'))) if (name !== '_gm.yaml') rmSync(join(dir, 'orders', '0001', name));
    writeOrders(dir, 1, ['argenta']);
    const post = folderPost(dir);
    const { at } = ticker(dir, '2025-03-18T12:00:00Z');
    await at('2025-03-18T12:00:00Z');
    await post.send({ from: ADDRESSES.gondarahl!, subject: 'ready', text: 'Ready to play!\n' });
    await post.send({ from: 'Ilse Varg <ilse@volunteer.test>', subject: 'Volunteer', text: 'volunteer Ilse Varg\n' });
    await at('2025-03-19T12:00:00Z');
    expect((await post.received(ADDRESSES.gondarahl!)).at(-1)!.text).toContain('Noted: you are ready to play. Orders for turn 1 are due Sun 23 Mar 2025 18:00 GMT.');
    // 72 hours before the deadline: the roll-call.
    const out = await at('2025-03-20T18:05:00Z');
    expect(out.lines.join('\n')).toContain('roll-call before turn 1: no word from grarkul, vulcanstille, westvalia');
    const rt = (await readRuntime(dir))!;
    expect(rt.rollCall).toMatchObject({ ready: ['gondarahl'] });
    expect(rt.alerts.filter((a) => a.kind === 'seats')).toHaveLength(1);
    // One volunteer, three silent seats: the first is offered to her, once.
    expect(rt.offers).toEqual([expect.objectContaining({ id: 1, nation: 'grarkul', address: 'ilse@volunteer.test', name: 'Ilse Varg', status: 'open', mailed: true })]);
    const invitations = (await post.received('ilse@volunteer.test')).filter((m) => m.subject?.includes('Invitation'));
    expect(invitations).toHaveLength(1);
    expect(invitations[0]!.text).toContain('Ilse Varg, you are invited to take over The Grarkul Tribes');
    await at('2025-03-21T12:00:00Z');
    expect((await post.received('ilse@volunteer.test')).filter((m) => m.subject?.includes('Invitation'))).toHaveLength(1);
    expect((await readRuntime(dir))!.alerts.filter((a) => a.kind === 'seats')).toHaveLength(1);
  });
});
