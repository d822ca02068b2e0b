import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { tick } from '../../src/schedule/tick.js';
import { ADDRESSES, CAMPAIGN_ADDRESS, TOKENS, demoCopy } from '../mailroom/support.js';
import { writeOrders } from '../schedule/support.js';

/**
 * Seats by mail, the other half (issue 35): a player back from the caretaker takes the nation back with one
 * "back" mail and is told what was done in their name; before turn 1, players confirm with "ready" (or
 * orders), the GM hears of the silent seats at the roll-call, and with seats.autofill a silent seat is
 * offered to the standby list by itself. Through the folder transport.
 */
const OTHERS = ['argenta', 'gondarahl', 'vulcanstille', 'westvalia'];

const secretsRoot = mkdtempSync(join(tmpdir(), 'fc-seats-back-'));
let previousSecrets: string | undefined;
beforeAll(() => {
  previousSecrets = process.env.FATECRAFT_SECRETS;
});
afterAll(() => {
  if (previousSecrets === undefined) delete process.env.FATECRAFT_SECRETS;
  else process.env.FATECRAFT_SECRETS = previousSecrets;
  rmSync(secretsRoot, { recursive: true, force: true });
});

function campaign(label: string, extra: string): string {
  const { dir } = demoCopy(label);
  writeFileSync(join(dir, 'campaign.yaml'), readFileSync(join(dir, 'campaign.yaml'), 'utf8') + extra);
  const file = join(secretsRoot, `${label}.yaml`);
  writeFileSync(file, Object.entries(TOKENS).map(([k, v]) => `${k}: ${v}`).join('\n') + '\n', { mode: 0o600 });
  process.env.FATECRAFT_SECRETS = file;
  return dir;
}

function folderPost(dir: string) {
  let n = 0;
  const outbox = join(dir, 'mail', 'outbox');
  return {
    async send(m: { from: string; subject: string; text: string }) {
      const stream = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await stream.sendMail({ ...m, to: CAMPAIGN_ADDRESS, messageId: `<p-${++n}@players.test>`, date: new Date('2025-03-01T00:00:00Z') });
      writeFileSync(join(dir, 'mail', 'inbox', `${String(n).padStart(3, '0')}.eml`), info.message as Buffer);
    },
    async received(address: string): Promise<ParsedMail[]> {
      const all = existsSync(outbox) ? readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
      const parsed = await Promise.all(all.map((f) => simpleParser(readFileSync(join(outbox, f)))));
      return parsed.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.value.some((v) => v.address === address))).sort((a, b) => a.date!.getTime() - b.date!.getTime());
    },
  };
}

describe('seats by mail', { timeout: 400_000 }, () => {
  it('"back": the nation is its player\'s again with one mail, and the answer says what was done in their name', async () => {
    const dir = campaign('back', `
schedule:
  deadline: "0 18 * * 0"
  timeZone: Europe/London
  reminders: [48h]
  grace: 15m
  maxTickGap: 4w
  firstDeadline: 2025-03-23T18:00:00Z
seats:
  policy: caretaker
`);
    const post = folderPost(dir);
    const clock = new FakeClock('2025-03-20T12:00:00Z');
    const hooks = mailroomHooks();
    const at = async (iso: string) => {
      clock.set(iso);
      const out = await tick(dir, { clock, hooks, renderers: turnRenderers() });
      expect(out.status, out.error).toBe('ok');
      return out;
    };
    await at('2025-03-20T12:00:00Z');
    const resolveAt = ['', '2025-03-23T18:20:00Z', '2025-03-30T17:20:00Z', '2025-04-06T17:20:00Z', '2025-04-13T17:20:00Z', '2025-04-20T17:20:00Z'];
    for (let turn = 1; turn <= 5; turn++) {
      if (turn > 1) writeOrders(dir, turn, OTHERS);
      expect((await at(resolveAt[turn]!)).resolved).toEqual([turn]);
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
    expect((await at('2025-04-27T17:20:00Z')).resolved).toEqual([6]);
    const { campaign: c } = await openCampaign(dir);
    const state = await readState(dir, 6, c);
    expect(state.nations.grarkul!.seat).toBeUndefined();
    expect(state.nations.grarkul!.missedTurns).toBe(0);
    expect(readFileSync(join(dir, 'turns', '0006', 'reports', 'argenta.txt'), 'utf8')).toContain('The Grarkul Tribes is heard from again: its ruler has returned.');
  });

  it('roll-call: "ready" or first orders confirm a seat; the GM hears of the silent ones; autofill offers them to the standby list', async () => {
    const dir = campaign('roll-call', `
schedule:
  deadline: "0 18 * * 0"
  timeZone: Europe/London
  reminders: [48h]
  grace: 15m
  maxTickGap: 4w
  rollCall: 72h
  firstDeadline: 2025-03-23T18:00:00Z
seats:
  policy: caretaker
  autofill: true
`);
    // No orders on file for turn 1: every seat must confirm.
    for (const name of readdirSync(join(dir, 'orders', '0001'))) if (name !== '_gm.yaml') rmSync(join(dir, 'orders', '0001', name));
    writeOrders(dir, 1, ['argenta']);
    const post = folderPost(dir);
    const clock = new FakeClock('2025-03-18T12:00:00Z');
    const hooks = mailroomHooks();
    const at = async (iso: string) => {
      clock.set(iso);
      const out = await tick(dir, { clock, hooks, renderers: turnRenderers() });
      expect(out.status, out.error).toBe('ok');
      return out;
    };
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
