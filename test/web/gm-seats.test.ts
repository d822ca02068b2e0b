import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRuntime, writeRuntime } from '../../src/schedule/runtime.js';
import type { Desk } from '../../src/web/desk.js';
import { decodeEntities } from '../report/support.js';
import { Client, deskOver, GM_SECRET, startedDemo, type DeskCampaignCopy } from './support.js';

/**
 * The GM's screen on the desk tells the seats as `fatecraft status` does (issue 35): who holds each seat
 * and how reliably, earlier holders, the standby list and open invitations.
 */
let copy: DeskCampaignCopy;
let desk: Desk;
const base = '/c/silversheen';

beforeAll(async () => {
  copy = await startedDemo('gm-seats');
  const runtime = (await readRuntime(copy.dir))!;
  runtime.seats = {
    ...runtime.seats,
    gondarahl: [
      { player: ['old@example.org'], fromTurn: 1, toTurn: 1, onTime: 0, missed: 1, excused: 0 },
      { player: ['new@example.org'], name: 'Ines', fromTurn: 2, onTime: 0, missed: 0, excused: 0 },
    ],
  };
  runtime.standby = [{ address: 'spare@example.org', name: 'Pat Spare', at: '2026-03-08T12:30:00Z' }];
  await writeRuntime(copy.dir, runtime);
  desk = deskOver([copy]);
});
afterAll(() => copy?.cleanup());

describe('the GM screen on the desk', () => {
  it('shows each seat with its holder, reliability and earlier holders, and the standby list', async () => {
    const gm = new Client(desk);
    expect((await gm.post(`${base}/gm/sign-in`, { secret: GM_SECRET })).status).toBe(303);
    const page = decodeEntities((await gm.get(`${base}/gm`)).text);
    expect(page).toContain('<td class="seat">Ines <new@example.org>, since turn 2: no turn owed yet; 1 earlier holder</td>');
    expect(page).toContain('<h3 id="standby">Standby list</h3>');
    expect(page).toContain('<li>Pat Spare <spare@example.org> since 2026-03-08T12:30:00Z</li>');
  });
});
