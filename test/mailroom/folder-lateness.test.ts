import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, demoCopy, scratchDir } from '../schedule/support.js';

/**
 * Issue 34, item 8: the folder transport judged "late" by the mail file's
 * modification time, said nowhere — a time that says when the file was
 * written or copied, which anyone can set. The rule now: a mail in the
 * folder inbox arrives when a fetch first sees it (as a real mailbox's
 * server stamps its arrival); neither the file's time nor its Date header
 * counts (docs/mail.md, "Late orders"). Both sides of the deadline, through
 * the built command line, on the demo's schedule (turn 1 due Sun 23 Mar 2025
 * 18:00 GMT, 15 minutes' grace).
 */
afterAll(cleanupScratch);

const secrets = join(scratchDir('secrets'), 'late.secrets.yaml');
// The commands run in this process (their wiring through the built CLI: test/cli/command-line.test.ts).
const run = (args: string[], now: string) => runInProcess(args, { env: { FATECRAFT_NOW: now, FATECRAFT_SECRETS: secrets } });

/** A started demo with folder mail, an empty inbox and no orders on file. */
async function started(label: string): Promise<string> {
  const dir = demoCopy(label, undefined, { keepMail: true });
  rmSync(join(dir, 'mail', 'inbox'), { recursive: true, force: true });
  mkdirSync(join(dir, 'mail', 'inbox'));
  rmSync(join(dir, 'orders', '0001'), { recursive: true, force: true });
  expect((await run(['tick', dir], '2025-03-20T10:00:00Z')).status).toBe(0);
  return dir;
}

/** Argenta's orders in the inbox, with the Date header and file time given. */
function drop(dir: string, name: string, date: string, fileTime: string): void {
  const token = (load(readFileSync(secrets, 'utf8')) as Record<string, string>).argenta!;
  const path = join(dir, 'mail', 'inbox', name);
  writeFileSync(path, `From: duke@argenta.test\r\nTo: turns@silversheen.example\r\nSubject: orders\r\nDate: ${date}\r\nMessage-ID: <${name}@argenta.test>\r\n\r\nToken: ${token}\r\nhold Argentum Guard\r\n`);
  utimesSync(path, new Date(fileTime), new Date(fileTime));
}

const answerTo = async (dir: string, name: string) => (await new OutboxQueue(join(dir, 'mail')).all()).find((q) => q.message.inReplyTo === `<${name}@argenta.test>`)!.message.text;

describe('late orders by the folder transport', () => {
  it('a mail first seen by a fetch after deadline and grace is late, though its file time and Date header are before the deadline', async () => {
    const dir = await started('late-after');
    drop(dir, 'early-file.eml', 'Fri, 21 Mar 2025 09:00:00 +0000', '2025-03-21T09:00:00Z');
    expect((await run(['mail', 'fetch', dir], '2025-03-23T18:16:00Z')).status).toBe(0);
    expect(existsSync(join(dir, 'orders', '0001', 'argenta.yaml'))).toBe(false);
    expect(await answerTo(dir, 'early-file.eml')).toContain('LATE: the deadline for turn 1 has passed.');
  });

  it('a mail first seen before deadline and grace is on time, though its file time and Date header are after it', async () => {
    const dir = await started('late-before');
    drop(dir, 'late-file.eml', 'Mon, 24 Mar 2025 09:00:00 +0000', '2025-03-24T09:00:00Z');
    expect((await run(['mail', 'fetch', dir], '2025-03-23T18:14:00Z')).status).toBe(0);
    expect(readdirSync(join(dir, 'orders', '0001'))).toContain('argenta.yaml');
    const answer = await answerTo(dir, 'late-file.eml');
    expect(answer).not.toContain('LATE');
    expect(answer).toContain('are on file');
  });
});
