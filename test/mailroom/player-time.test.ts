import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { openCampaign } from '../../src/campaign/store.js';
import { turnRenderers } from '../../src/cli/renderers.js';
import { findCommands, timeZoneOf, waitOf } from '../../src/mailroom/mail-commands.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { OutboxQueue, type QueuedMessage } from '../../src/mailroom/outbox.js';
import { scheduleView } from '../../src/mailroom/schedule-view.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { deadlineFor, yourZoneTime } from '../../src/schedule/player-time.js';
import { campaignStatus, formatStatus } from '../../src/schedule/status.js';
import { tick } from '../../src/schedule/tick.js';
import { ADDRESSES, TOKENS, cleanupAll, demoCopy, dropInInbox, secrets } from './support.js';

/**
 * Deadlines on each player's own clock, beside the campaign's: set by the GM in campaign.yaml
 * (nations.<id>.timeZone) or by the player with a "timezone <zone>" mail, and shown in receipts, command
 * answers, reminders and reports.
 */
afterAll(cleanupAll);

const mail = (name: string, from: string, body: string, subject = 'to the GM') =>
  `From: ${from}\r\nTo: turns@silversheen.test\r\nSubject: ${subject}\r\nMessage-ID: <${name}@player.test>\r\nDate: Thu, 05 Mar 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`;

/** campaign.yaml with a line added to one nation's block, after its email list. */
function setNationLine(dir: string, nation: string, line: string): void {
  const file = join(dir, 'campaign.yaml');
  const text = readFileSync(file, 'utf8');
  const email = `    email: [${ADDRESSES[nation]}]\n`;
  if (!text.includes(email)) throw new Error(`no email line for ${nation}`);
  writeFileSync(file, text.replace(email, `${email}    ${line}\n`));
}

const to = (entries: QueuedMessage[], nation: string, kind?: string) => entries.filter((e) => e.message.to.includes(ADDRESSES[nation]!) && (kind === undefined || e.kind === kind));

describe('the deadline on a player\'s own clock', () => {
  it('is shown beside the campaign\'s, with the day when it is another day there', () => {
    const at = new Date('2025-11-28T18:00:00Z');
    expect(deadlineFor({ at, timeZone: 'UTC', zones: { argenta: 'Europe/Berlin' } }, 'argenta')).toBe('Fri 28 Nov 2025 18:00 UTC (19:00 in your zone, Europe/Berlin)');
    expect(deadlineFor({ at, timeZone: 'UTC', zones: { argenta: 'Asia/Tokyo' } }, 'argenta')).toBe('Fri 28 Nov 2025 18:00 UTC (Sat 29 Nov 03:00 in your zone, Asia/Tokyo)');
    expect(deadlineFor({ at, timeZone: 'UTC', zones: { argenta: 'Europe/Berlin' } }, 'gondarahl')).toBe('Fri 28 Nov 2025 18:00 UTC');
    // The same clock (another name for it) adds nothing.
    expect(yourZoneTime(at, 'Europe/London', 'Europe/Lisbon')).toBeUndefined();
  });

  it('reads "timezone" and "wait" mail commands', () => {
    expect(findCommands('', 'timezone Europe/Berlin')).toEqual(['timezone']);
    expect(timeZoneOf('', 'My time zone is america/new_york.')).toEqual({ kind: 'set', zone: 'America/New_York' });
    expect(timeZoneOf('Time zone: Asia/Tokyo', '')).toEqual({ kind: 'set', zone: 'Asia/Tokyo' });
    expect(timeZoneOf('', 'timezone none')).toEqual({ kind: 'clear' });
    expect(timeZoneOf('', 'timezone CET')).toEqual({ kind: 'unknown', text: 'CET' });
    expect(timeZoneOf('', 'timezone +01:00')).toEqual({ kind: 'unknown', text: '+01:00' });
    expect(findCommands('', 'Wait for the deadline, please')).toEqual(['wait']);
    expect(findCommands('', "don't wait")).toEqual(['wait']);
    expect(findCommands('', 'wait, I forgot to ask about the map of the northern coast')).toEqual([]);
    expect(waitOf('', 'wait')).toBe(true);
    expect(waitOf('', "Don't wait")).toBe(false);
    expect(waitOf('', 'resolve early')).toBe(false);
  });

  it('a zone in campaign.yaml that is no IANA zone is refused with the nation and what to write', async () => {
    const { dir } = demoCopy('zone-bad');
    setNationLine(dir, 'argenta', 'timeZone: Mars/Olympus');
    const error = await openCampaign(dir).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toContain('nations.argenta.timeZone');
    expect(error).toContain('unknown time zone "Mars/Olympus"; use an IANA name such as Europe/Berlin');
  });

  it('in receipts, answers, reminders and reports: set in campaign.yaml or by mail, a bad zone by mail refused', async () => {
    const { dir } = demoCopy('zones');
    setNationLine(dir, 'argenta', 'timeZone: Europe/Berlin');
    setNationLine(dir, 'vulcanstille', 'timeZone: america/new_york');
    // gondarahl and grarkul have no orders on file: they get reminders.
    for (const nation of ['gondarahl', 'grarkul']) rmSync(join(dir, 'orders', '0001', `${nation}.yaml`));
    dropInInbox(dir, 'a.eml', mail('a', ADDRESSES.argenta!, `Token: ${TOKENS.argenta}\nhold Argentum Guard\n`, 'Orders'));
    dropInInbox(dir, 'g.eml', mail('g', ADDRESSES.gondarahl!, 'Hello,\ntimezone Asia/Tokyo\n'));
    dropInInbox(dir, 'k.eml', mail('k', ADDRESSES.grarkul!, 'timezone Mars/Olympus'));
    dropInInbox(dir, 'v.eml', mail('v', ADDRESSES.vulcanstille!, 'When is the deadline?'));
    const clock = new FakeClock('2026-03-05T12:00:00Z'); // Thursday; due Sunday 8 March 18:00 London (GMT)
    const hooks = mailroomHooks({ secrets: secrets() });
    const first = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(first.status, first.error).toBe('ok');
    const queue = new OutboxQueue(join(dir, 'mail'));
    let all = await queue.all();

    // The welcome of the start, and the answer to "deadline": the deadline on both clocks.
    expect(to(all, 'argenta', 'report')[0]?.message.text).toContain('Orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT (19:00 in your zone, Europe/Berlin).');
    expect(to(all, 'vulcanstille', 'reply')[0]?.message.text).toContain('Orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT (14:00 in your zone, America/New_York).');
    // The receipt: the deadline on both clocks.
    expect(to(all, 'argenta', 'receipt')[0]?.message.text).toContain('Orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT (19:00 in your zone, Europe/Berlin); until then, orders you send replace these.');
    // Set by mail: kept in runtime.yaml, confirmed with the deadline in the new zone.
    const runtime = load(readFileSync(join(dir, 'runtime.yaml'), 'utf8')) as { timeZones: Record<string, string>; log: { op: string; detail: string }[] };
    expect(runtime.timeZones).toEqual({ gondarahl: 'Asia/Tokyo' });
    expect(runtime.log.some((l) => l.op === 'time-zone' && l.detail.startsWith("gondarahl's time zone set to Asia/Tokyo"))).toBe(true);
    expect(to(all, 'gondarahl')[0]?.message.text).toContain('Noted: deadlines in your mail and reports are shown in your time zone, Asia/Tokyo, beside the campaign\'s. Orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT (Mon 9 Mar 03:00 in your zone, Asia/Tokyo).');
    // A name that is no zone: nothing kept, and the answer says what to write.
    expect(to(all, 'grarkul')[0]?.message.text).toContain('"Mars/Olympus" is not a time zone; nothing was changed. Write its IANA name, for example "timezone Europe/Berlin"');

    // The 48h reminders: each on its player's clock.
    clock.set('2026-03-06T19:00:00Z');
    expect((await tick(dir, { clock, hooks, renderers: turnRenderers() })).status).toBe('ok');
    all = await queue.all();
    expect(to(all, 'gondarahl', 'reminder')[0]?.message.subject).toBe('[The Silversheen Sea] Reminder: orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT (Mon 9 Mar 03:00 in your zone, Asia/Tokyo)');
    expect(to(all, 'grarkul', 'reminder')[0]?.message.text).toContain('They are due Sun 8 Mar 2026 18:00 GMT.');
    expect(formatStatus(await campaignStatus(dir, { clock }))).toMatch(/gondarahl +waiting +zone Asia\/Tokyo/);

    // The reports of turn 1 and their mail: turn 2's deadline on the player's clock too.
    clock.set('2026-03-08T14:00:00Z'); // the 6h reminders; the ticks keep going, so no long-gap guard
    expect((await tick(dir, { clock, hooks, renderers: turnRenderers() })).status).toBe('ok');
    clock.set('2026-03-08T18:20:00Z');
    const due = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(due.resolved, due.lines.join('\n')).toEqual([1]);
    const reports = join(dir, 'turns', '0001', 'reports');
    const berlin = 'Sun 15 Mar 2026 18:00 GMT (19:00 in your zone, Europe/Berlin)';
    expect(readFileSync(join(reports, 'argenta.txt'), 'utf8')).toContain(`deadline: ${berlin}`);
    expect(readFileSync(join(reports, 'argenta.html'), 'utf8')).toContain(`<strong>${berlin}</strong>`);
    expect(readFileSync(join(reports, 'argenta-orders.yaml'), 'utf8')).toContain(`# Deadline: ${berlin}`);
    expect(readFileSync(join(reports, 'gondarahl.txt'), 'utf8')).toContain('deadline: Sun 15 Mar 2026 18:00 GMT (Mon 16 Mar 03:00 in your zone, Asia/Tokyo)');
    expect(readFileSync(join(reports, 'westvalia.txt'), 'utf8')).toContain('deadline: Sun 15 Mar 2026 18:00 GMT\n');
    all = await queue.all();
    expect(to(all, 'argenta', 'report').at(-1)?.message.text).toContain(`Orders for turn 2 are due ${berlin}.`);
    expect(to(all, 'westvalia', 'report').at(-1)?.message.text).not.toContain('in your zone');
  });

  it('by a hand-run `mail fetch`, kept in runtime.yaml once the schedule has started; before, the GM is told', async () => {
    const { dir } = demoCopy('zones-by-hand');
    const clock = new FakeClock('2026-03-05T12:00:00Z');
    const mailClock = { now: () => clock.now(), sleep: async () => undefined };
    dropInInbox(dir, 'g.eml', mail('g', ADDRESSES.gondarahl!, 'timezone Asia/Tokyo'));
    await fetchMail(dir, { clock: mailClock, secrets: secrets(), ...(await scheduleView(await openCampaign(dir), () => clock.now())) });
    const queue = new OutboxQueue(join(dir, 'mail'));
    expect((await queue.all()).find((e) => e.kind === 'alert')?.message.text).toContain('set nations.gondarahl.timeZone in campaign.yaml');

    expect((await tick(dir, { clock, hooks: mailroomHooks({ secrets: secrets() }) })).status).toBe('ok');
    dropInInbox(dir, 'g2.eml', mail('g2', ADDRESSES.gondarahl!, 'timezone America/New_York'));
    await fetchMail(dir, { clock: mailClock, secrets: secrets(), ...(await scheduleView(await openCampaign(dir), () => clock.now())) });
    const runtime = load(readFileSync(join(dir, 'runtime.yaml'), 'utf8')) as { timeZones: Record<string, string> };
    expect(runtime.timeZones).toEqual({ gondarahl: 'America/New_York' });
    const answer = to(await queue.all(), 'gondarahl', 'reply').at(-1);
    expect(answer?.message.text).toContain('Orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT (14:00 in your zone, America/New_York).');
  });
});
