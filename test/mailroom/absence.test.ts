import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { absenceOf, findCommands } from '../../src/mailroom/mail-commands.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { tick } from '../../src/schedule/tick.js';
import { ADDRESSES, TestClock, cleanupAll, demoCopy, dropInInbox, secrets } from './support.js';

/** "absent for 2 turns" by mail: recorded by the schedule, so no reminders and no waiting for that nation. */
afterAll(cleanupAll);

const mail = (from: string, body: string) =>
  `From: ${from}\r\nTo: turns@silversheen.test\r\nSubject: holiday\r\nMessage-ID: <away-${Buffer.from(body).toString('hex').slice(0, 12)}@player.test>\r\nDate: Thu, 05 Mar 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`;

describe('declaring an absence by mail', () => {
  it('reads how long', () => {
    expect(findCommands('holiday', 'Hi GM,\nabsent for 2 turns\nCristoval')).toEqual(['absent']);
    expect(absenceOf('', 'I am away for two turns', 3)).toEqual({ fromTurn: 3, toTurn: 4 });
    expect(absenceOf('', 'away until turn 7', 3)).toEqual({ fromTurn: 3, toTurn: 7 });
    expect(absenceOf('Absent', '', 3)).toEqual({ fromTurn: 3, toTurn: 3 });
    expect(absenceOf('', 'absent for 40 turns', 3)).toEqual({ fromTurn: 3, toTurn: 8 });
  });

  it('under the schedule, is recorded and answered, and no reminder goes to the absent player', async () => {
    const { dir } = demoCopy('absent', { yamlOrders: false });
    dropInInbox(dir, 'away.eml', mail(ADDRESSES.argenta!, 'Dear GM,\nabsent for 2 turns\n\nCristoval'));
    const clock = new FakeClock('2026-03-05T12:00:00Z'); // Thursday; the deadline is Sunday 18:00 London, reminders 48h before
    const hooks = mailroomHooks({ secrets: secrets() });
    const first = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(first.status, first.error).toBe('ok');
    const runtime = load(readFileSync(join(dir, 'runtime.yaml'), 'utf8')) as { absences: { nation: string; fromTurn: number; toTurn: number }[] };
    expect(runtime.absences).toMatchObject([{ nation: 'argenta', fromTurn: 1, toTurn: 2 }]);
    const queue = new OutboxQueue(join(dir, 'mail'));
    const answer = (await queue.all()).find((q) => q.message.to.includes(ADDRESSES.argenta!));
    expect(answer?.message.text).toMatch(/Noted: you are away for turns 1 to 2\. You will get no reminders/);

    clock.set('2026-03-06T19:00:00Z'); // after the 48h reminder time
    const second = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(second.status, second.error).toBe('ok');
    const reminded = (await queue.all()).filter((q) => q.kind === 'reminder').flatMap((q) => q.message.to);
    expect(reminded.length).toBeGreaterThan(0);
    expect(reminded).not.toContain(ADDRESSES.argenta);
  });

  it('without the schedule, tells the GM', async () => {
    const { dir } = demoCopy('absent-gm', { yamlOrders: false });
    dropInInbox(dir, 'away.eml', mail(ADDRESSES.gondarahl!, 'away until turn 3'));
    await fetchMail(dir, { clock: new TestClock(), secrets: secrets() });
    const queue = new OutboxQueue(join(dir, 'mail'));
    const all = await queue.all();
    const alert = all.find((q) => q.kind === 'alert');
    expect(alert?.message.to).toEqual(['gm@silversheen.test']);
    expect(alert?.message.text).toMatch(/gondarahl .* away for turns 1–3/);
    expect(all.find((q) => q.message.to.includes(ADDRESSES.gondarahl!))?.message.text).toMatch(/The GM has been told/);
  });
});
