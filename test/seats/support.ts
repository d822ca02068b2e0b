import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, expect } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { tick } from '../../src/schedule/tick.js';
import { CAMPAIGN_ADDRESS, TOKENS } from '../mailroom/support.js';

/**
 * What the seats' mail tests share: the nations that always send orders, a weekly schedule with the
 * caretaker policy, the players' tokens in a real secrets file (a taken seat writes its new token there),
 * the folder transport seen as players see it, and a tick at a given time.
 */
export const OTHERS = ['argenta', 'gondarahl', 'vulcanstille', 'westvalia'];

/** Sundays 18:00 London; firstDeadline 23 March 2025; BST from 30 March; `extra` under schedule:, then seats:. */
export const schedule = (seats: string, extra = '') => `
schedule:
  deadline: "0 18 * * 0"
  timeZone: Europe/London
  reminders: [48h]
  grace: 15m
  maxTickGap: 4w
${extra}  firstDeadline: 2025-03-23T18:00:00Z
seats:
${seats}`;

/** The tick that resolves each turn: its deadline plus grace and a few minutes. */
export const RESOLVE = ['', '2025-03-23T18:20:00Z', '2025-03-30T17:20:00Z', '2025-04-06T17:20:00Z', '2025-04-13T17:20:00Z', '2025-04-20T17:20:00Z', '2025-04-27T17:20:00Z'];

/** Points FATECRAFT_SECRETS at a fresh secrets file with the demo's tokens (and `extra`) for each test; restored after the file's tests. */
export function useSecretsFile(): (label: string, extra?: Record<string, string>) => void {
  const root = mkdtempSync(join(tmpdir(), 'fc-seats-secrets-'));
  let previous: string | undefined;
  beforeAll(() => {
    previous = process.env.FATECRAFT_SECRETS;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.FATECRAFT_SECRETS;
    else process.env.FATECRAFT_SECRETS = previous;
    rmSync(root, { recursive: true, force: true });
  });
  return (label, extra = {}) => {
    const file = join(root, `${label}.yaml`);
    writeFileSync(file, `${Object.entries({ ...TOKENS, ...extra }).map(([k, v]) => `${k}: ${v}`).join('\n')}\n`, { mode: 0o600 });
    process.env.FATECRAFT_SECRETS = file;
  };
}

/** How mail reaches the campaign and the players. */
export interface Post {
  send(mail: { from: string; subject: string; text: string; inReplyTo?: string }): Promise<void>;
  /** Everything the campaign sent to an address so far, oldest first. */
  received(address: string): Promise<ParsedMail[]>;
}

export const byDate = (a: ParsedMail, b: ParsedMail) => a.date!.getTime() - b.date!.getTime() || String(a.messageId).localeCompare(String(b.messageId));

/** The folder transport as players see it: their mail dropped into mail/inbox, the campaign's read from mail/outbox. */
export function folderPost(dir: string): Post {
  let n = 0;
  const outbox = join(dir, 'mail', 'outbox');
  return {
    async send(m) {
      const stream = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await stream.sendMail({ from: m.from, to: CAMPAIGN_ADDRESS, subject: m.subject, text: m.text, ...(m.inReplyTo ? { inReplyTo: m.inReplyTo, references: [m.inReplyTo] } : {}), messageId: `<player-${++n}@players.test>`, date: new Date('2025-03-01T00:00:00Z') });
      writeFileSync(join(dir, 'mail', 'inbox', `${String(n).padStart(3, '0')}.eml`), info.message as Buffer);
    },
    async received(address) {
      const all = existsSync(outbox) ? readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
      const parsed = await Promise.all(all.map((f) => simpleParser(readFileSync(join(outbox, f)))));
      return parsed.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.value.some((v) => v.address === address))).sort(byDate);
    },
  };
}

/** Ticks a campaign with the mailroom's hooks and the report renderers at the times given, each expected to go well. */
export function ticker(dir: string, start: string) {
  const clock = new FakeClock(start);
  const hooks = mailroomHooks();
  const at = async (iso: string) => {
    clock.set(iso);
    const out = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(out.status, `${iso}: ${out.error ?? ''}\n${out.lines.join('\n')}`).toBe('ok');
    return out;
  };
  return { clock, hooks, at };
}
