import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { tick } from '../../src/schedule/tick.js';
import { mailServersAvailable, type MailServers, type StoredMessage } from '../support/mail-servers.js';
import { ADDRESSES, CAMPAIGN_ADDRESS, GM_ADDRESS, PASSWORD, TOKENS, imapCampaign, imapSecrets, withMailServers } from '../mailroom/support.js';

/**
 * Issue 9's acceptance test: three weeks of a campaign driven by the injected clock against real mail
 * servers (Dovecot over IMAP, an SMTP relay). `tick` runs with the mailroom as its hooks every six hours
 * of fake time, and at each deadline plus grace; the players send their orders over SMTP during the week
 * and read everything back from their own mailboxes over IMAP.
 *
 * Each week argenta, gondarahl and grarkul send orders as soon as the turn opens, vulcanstille only after
 * its 48h reminder, and westvalia never; in week two westvalia sends orders for turn 1, already resolved.
 */
const run = mailServersAvailable() || process.env.CI !== undefined;

const HOUR = 3_600_000;
const NATIONS = Object.keys(ADDRESSES).sort();
const EARLY = ['argenta', 'gondarahl', 'grarkul'];
/** Sundays 18:00 London (GMT until 29 March 2026). */
const DEADLINES = ['2026-03-08T18:00:00.000Z', '2026-03-15T18:00:00.000Z', '2026-03-22T18:00:00.000Z'];
const GRACE = 15 * 60_000;
const SCHEDULE = `
schedule:
  deadline: "0 18 * * 0"
  timeZone: Europe/London
  reminders: [48h, 6h]
  grace: 15m
  maxTickGap: 12h
  firstDeadline: 2026-03-08T18:00:00Z
`;
/** Two units of each nation that hold every turn (nobody attacks, so they live). */
const UNITS: Record<string, string[]> = {
  argenta: ['ar-argentum-guard', 'ar-harbour-marines'],
  gondarahl: ['gd-deepwatch', 'gd-gateguard'],
  grarkul: ['gk-gorefang', 'gk-grukka'],
  vulcanstille: ['vs-ashen-guard', 'vs-iron-chains'],
  westvalia: ['wv-barrow-watch', 'wv-engineers'],
};

const at = (ms: number) => new Date(ms).toISOString();
const kind = (m: StoredMessage) => m.parsed.headers.get('x-fatecraft-kind');
const sentAt = (m: StoredMessage) => m.parsed.date!.toISOString();

describe.skipIf(!run)('three weeks of a campaign by the injected clock, through real mail servers', () => {
  let servers: MailServers;
  withMailServers((started) => (servers = started));

  async function sendOrders(nation: string, turn: number): Promise<void> {
    const transport = createTransport({ host: servers.smtp.host, port: servers.smtp.port, secure: false, logger: false });
    const text = [`Token: ${TOKENS[nation]}`, `Turn: ${turn}`, ...UNITS[nation]!.map((u) => `hold ${u}`), '', 'Regards'].join('\n');
    await transport.sendMail({ from: ADDRESSES[nation], to: CAMPAIGN_ADDRESS, subject: `Orders for turn ${turn}`, text });
    transport.close();
  }

  it('reminds at the right times, resolves each turn once at deadline + grace, mails each report once, refuses a late order', async () => {
    const { dir } = await imapCampaign(servers, 'weeks');
    appendFileSync(join(dir, 'campaign.yaml'), SCHEDULE);
    const clock = new FakeClock('2026-03-05T12:00:00Z');
    const hooks = mailroomHooks({ secrets: imapSecrets() });

    // A tick every six hours (this hits each 48h and 6h reminder time exactly), and one at each deadline + grace.
    const times = new Set<number>();
    for (let t = Date.parse('2026-03-05T12:00:00Z'); t <= Date.parse('2026-03-23T00:00:00Z'); t += 6 * HOUR) times.add(t);
    for (const d of DEADLINES) times.add(Date.parse(d) + GRACE);

    const resolvedAt: Record<number, string[]> = {};
    const sentFor: Record<string, number[]> = Object.fromEntries(NATIONS.map((n) => [n, []]));
    let lateSent = false;
    let pending = 1;
    for (const t of [...times].sort((a, b) => a - b)) {
      clock.set(new Date(t));
      // The players write before this tick.
      if (pending <= 3) {
        const deadline = Date.parse(DEADLINES[pending - 1]!);
        for (const nation of EARLY) {
          if (!sentFor[nation]!.includes(pending)) {
            await sendOrders(nation, pending);
            sentFor[nation]!.push(pending);
          }
        }
        // vulcanstille answers its 48h reminder, at the next tick after it.
        if (t > deadline - 48 * HOUR && !sentFor.vulcanstille!.includes(pending)) {
          await sendOrders('vulcanstille', pending);
          sentFor.vulcanstille!.push(pending);
        }
      }
      if (pending === 2 && !lateSent) {
        await sendOrders('westvalia', 1); // a week late: turn 1 is resolved
        lateSent = true;
      }

      const outcome = await tick(dir, { clock, hooks, renderers: turnRenderers() });
      expect(outcome.status, `${at(t)}: ${outcome.error}\n${outcome.lines.join('\n')}`).toBe('ok');
      for (const turn of outcome.resolved) (resolvedAt[turn] ??= []).push(at(t));
      pending = (await readRuntime(dir))!.turn;
    }

    // Each turn resolved exactly once, at its deadline plus grace.
    expect(resolvedAt).toEqual({ 1: ['2026-03-08T18:15:00.000Z'], 2: ['2026-03-15T18:15:00.000Z'], 3: ['2026-03-22T18:15:00.000Z'] });
    expect(readdirSync(join(dir, 'turns')).filter((n) => !n.startsWith('.')).sort()).toEqual(['0000', '0001', '0002', '0003']);
    const rt = (await readRuntime(dir))!;
    expect(rt.turn).toBe(4);
    expect(rt.log.filter((l) => l.op === 'resolved').map((l) => l.turn)).toEqual([1, 2, 3]);
    expect(rt.alerts).toEqual([]);

    // What each player holds, read over IMAP.
    for (const nation of NATIONS) {
      const box = await servers.readMailbox(ADDRESSES[nation]!, PASSWORD);
      expect(new Set(box.map((m) => m.parsed.messageId)).size, `${nation}: no message twice`).toBe(box.length);

      // Reminders: only to nations without orders on file, each exactly once and at its time.
      const reminders = box.filter((m) => kind(m) === 'reminder').map((m) => [Number(/orders for turn (\d+)/.exec(m.parsed.subject ?? '')?.[1]), sentAt(m)]);
      const expected: [number, string][] = [];
      if (nation === 'vulcanstille' || nation === 'westvalia') {
        DEADLINES.forEach((d, i) => {
          expected.push([i + 1, at(Date.parse(d) - 48 * HOUR)]);
          if (nation === 'westvalia') expected.push([i + 1, at(Date.parse(d) - 6 * HOUR)]);
        });
      }
      expect(reminders, `${nation}: reminders`).toEqual(expected);

      // Every nation gets its starting report from the first tick (the campaign had not been started), then
      // each turn's report exactly once, when the turn resolved.
      const reports = box.filter((m) => kind(m) === 'report');
      expect(reports.map(sentAt), `${nation}: reports`).toEqual(['2026-03-05T12:00:00.000Z', ...[1, 2, 3].map((turn) => resolvedAt[turn]![0])]);
      const subjects = ['your starting report; orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT', ...[1, 2, 3].map((turn) => `Turn ${turn} report`)];
      reports.forEach((m, i) => expect(m.parsed.subject, `${nation}: report ${i}`).toContain(subjects[i]));

      // Receipts for every order on file; westvalia's order for turn 1 was refused, and said so.
      const receipts = box.filter((m) => kind(m) === 'receipt');
      const replies = box.filter((m) => kind(m) === 'reply');
      if (nation === 'westvalia') {
        expect(receipts).toEqual([]);
        expect(replies).toHaveLength(1);
        expect(replies[0]!.parsed.text).toContain('turn 1 is already resolved');
        expect(replies[0]!.parsed.text).toContain('will not be applied');
        expect(sentAt(replies[0]!)).toBe('2026-03-09T00:00:00.000Z');
      } else {
        expect(replies, `${nation}: no refusals`).toEqual([]);
        expect(receipts.map((m) => /turn (\d+), are on file/.exec(m.parsed.text ?? '')?.[1])).toEqual(['1', '2', '3']);
      }
      expect(box).toHaveLength(reminders.length + reports.length + receipts.length + replies.length);
    }

    // The late order was not filed, for turn 1 or any other. (A resolved turn keeps the orders it used, moved out of orders/NNNN.)
    for (const turn of ['0001', '0002', '0003']) {
      expect(existsSync(join(dir, 'orders', turn, 'westvalia.yaml')), turn).toBe(false);
      expect(readdirSync(join(dir, 'orders', turn)).filter((n) => n.endsWith('.yaml')), turn).toEqual([]);
      expect(readdirSync(join(dir, 'turns', turn, 'orders')).filter((n) => n.endsWith('.yaml') && n !== '_gm.yaml').sort()).toEqual(['argenta.yaml', 'gondarahl.yaml', 'grarkul.yaml', 'vulcanstille.yaml']);
    }
    expect(existsSync(join(dir, 'turns', '0001', 'orders', 'westvalia.yaml'))).toBe(false);

    // The GM: one GM report per turn (and the starting position's), no alerts. The campaign's inbox: every mail read once.
    const gm = await servers.readMailbox(GM_ADDRESS, PASSWORD);
    expect(gm.map((m) => [kind(m), m.parsed.subject])).toEqual([0, 1, 2, 3].map((turn) => ['gm-report', `[The Silversheen Sea] GM report, turn ${turn}`]));
    expect(await servers.readMailbox(CAMPAIGN_ADDRESS, PASSWORD)).toEqual([]);
    expect(await servers.readMailbox(CAMPAIGN_ADDRESS, PASSWORD, 'Processed')).toHaveLength(4 * 3 + 1);
  });
});
