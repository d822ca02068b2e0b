import { copyFileSync, cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { tokenDigest } from '../../src/campaign/secrets.js';
import { OutboxQueue, type QueuedMessage } from '../../src/mailroom/outbox.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { runBuilt } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, demoCopy, scratchDir } from '../schedule/support.js';

/**
 * `fatecraft nation split` and `fatecraft token --new` are whole or absent after a crash (issue 33): killed
 * (SIGKILL, by the failpoints the turn uses: FATECRAFT_FAILPOINT) at every step, the next command — here the
 * tick — completes the operation or undoes it, and says which; run again when undone, it ends as an
 * uninterrupted run would, with every mail to the players once. The old code left a split nation with no
 * token and refused to run the split again, and a replaced token mailed to no one, both without a word.
 */
afterAll(cleanupScratch);

const NOW = '2025-03-20T10:00:00Z'; // before turn 1's deadline (Sunday 23 March, 18:00 London)

interface Copy {
  dir: string;
  secrets: string;
}

let base: Copy;
let town: string;
let unit: string;

const env = (c: Copy) => ({ FATECRAFT_NOW: NOW, FATECRAFT_SECRETS: c.secrets, FATECRAFT_LOCK_WAIT: '0' });
/** A command run in this process: what the operation and the recovery do. */
const fc = (c: Copy, args: string[]) => runInProcess(args, { env: env(c) });
/** A command killed (SIGKILL) at a failpoint: a process of the built CLI. */
const killedAt = (c: Copy, args: string[], failpoint: string) => runBuilt(args, { env: { ...env(c), FATECRAFT_FAILPOINT: failpoint } });

/** A copy of the started demo campaign (mail by the folder transport) with its own secrets file. */
function copy(label: string): Copy {
  const root = scratchDir(label);
  const c = { dir: join(root, 'silversheen'), secrets: join(root, 'silversheen.secrets.yaml') };
  cpSync(base.dir, c.dir, { recursive: true });
  copyFileSync(base.secrets, c.secrets);
  return c;
}

const tokens = (c: Copy) => (existsSync(c.secrets) ? (load(readFileSync(c.secrets, 'utf8')) as Record<string, string>) : {});
const queue = async (c: Copy) => new OutboxQueue(join(c.dir, 'mail')).all();
const to = (q: QueuedMessage, address: string) => q.message.to.includes(address);
const stagedFiles = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.gm-new') || e.name === '.gm-journal.json') out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
};

beforeAll(async () => {
  const root = scratchDir('started');
  base = { dir: demoCopy('gm-crash', undefined, { keepMail: true }), secrets: join(root, 'silversheen.secrets.yaml') };
  const started = await fc(base, ['start', base.dir]);
  expect(started.status, started.stderr).toBe(0);
  const open = await openCampaign(base.dir);
  const state = await readState(base.dir, 0, open.campaign);
  const vulcan = asNationId('vulcanstille');
  town = Object.values(state.settlements).find((s) => s.nation === vulcan && s.level !== 'capital')!.id;
  unit = Object.values(state.units).find((u) => u.nation === vulcan && u.hex !== state.settlements[town as never]!.hex)!.id;
});

describe('`fatecraft token --new` killed at every step', () => {
  const POINTS = { 'gm-op-recorded': 'undone', 'gm-files-committed': 'undone', 'gm-token-set': 'completed', 'gm-op-finished': 'whole', 'gm-mail-queued': 'whole' } as const;

  for (const [point, expected] of Object.entries(POINTS)) {
    it(`at ${point}: ${expected === 'whole' ? 'it was whole already' : `the next command ${expected === 'undone' ? 'undoes' : 'completes'} it`}, and the player gets the new token once`, async () => {
      const c = copy(`token-${point}`);
      const old = tokens(c).argenta!;
      const killed = killedAt(c, ['token', c.dir, 'argenta', '--new'], point);
      expect(killed.signal, `${killed.stdout}${killed.stderr}`).toBe('SIGKILL');

      const after = await fc(c, ['tick', c.dir]);
      expect(after.status, after.stderr).toBe(0);
      const said = `${after.stdout}${after.stderr}`;
      const replaced = tokens(c).argenta !== old;
      if (expected === 'undone') {
        expect(said).toContain('"fatecraft token');
        expect(said).toMatch(/was interrupted before it changed anything; it has been undone and nothing was done/);
        expect(replaced).toBe(false);
        expect((await queue(c)).filter((q) => to(q, 'duke@argenta.test') && q.message.subject.includes('new order token'))).toEqual([]);
        const again = await fc(c, ['token', c.dir, 'argenta', '--new']);
        expect(again.status, again.stderr).toBe(0);
      } else if (expected === 'completed') {
        expect(said).toMatch(/was interrupted after it had changed the campaign; it has now been completed/);
        expect(replaced).toBe(true);
        expect((await fc(c, ['tick', c.dir])).status).toBe(0);
      } else {
        expect(said).not.toContain('interrupted');
        expect(replaced).toBe(true);
      }

      const now = tokens(c).argenta!;
      expect(now).not.toBe(old);
      const rt = (await readRuntime(c.dir))!;
      expect(rt.operation).toBeUndefined();
      expect(rt.retiredTokens.argenta).toContain(tokenDigest(old));
      expect(rt.log.filter((l) => l.op === 'token')).toHaveLength(1);
      if (expected !== 'whole') expect(rt.alerts.filter((a) => a.kind === 'recovered')).toHaveLength(1);
      const mails = (await queue(c)).filter((q) => to(q, 'duke@argenta.test') && q.message.subject.includes('new order token'));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.message.text).toContain(`Your order token: ${now}`);
      expect(mails[0]!.status).toBe('sent');
    });
  }
});

describe('`fatecraft nation split` killed at every step', () => {
  const POINTS = { 'gm-op-recorded': 'undone', 'gm-files-staged': 'undone', 'gm-journal-written': 'completed', 'gm-files-committed': 'completed', 'gm-token-set': 'completed', 'gm-op-finished': 'whole' } as const;
  const split = (c: Copy) => ['nation', 'split', c.dir, 'vulcanstille', 'ashfree', '--name', 'The Free Cities of Ash', '--leader', 'Warden Oska', '--settlements', town, '--units', unit, '--email', 'oska@ash.test'];

  for (const [point, expected] of Object.entries(POINTS)) {
    it(`at ${point}: ${expected === 'whole' ? 'it was whole already' : `the next command ${expected === 'undone' ? 'undoes' : 'completes'} it`}; the new nation has its token, and each notice goes once`, async () => {
      const c = copy(`split-${point}`);
      const campaignBefore = readFileSync(join(c.dir, 'campaign.yaml'), 'utf8');
      const stateBefore = readFileSync(join(c.dir, 'turns', '0000', 'state.yaml'), 'utf8');
      const killed = killedAt(c, split(c), point);
      expect(killed.signal, `${killed.stdout}${killed.stderr}`).toBe('SIGKILL');

      const after = await fc(c, ['tick', c.dir]);
      expect(after.status, after.stderr).toBe(0);
      const said = `${after.stdout}${after.stderr}`;
      if (expected === 'undone') {
        expect(said).toMatch(/"fatecraft nation split .* vulcanstille ashfree" \(started .*\) was interrupted before it changed anything; it has been undone and nothing was done/);
        expect(readFileSync(join(c.dir, 'campaign.yaml'), 'utf8')).toBe(campaignBefore);
        expect(readFileSync(join(c.dir, 'turns', '0000', 'state.yaml'), 'utf8')).toBe(stateBefore);
        expect(tokens(c).ashfree).toBeUndefined();
        expect(stagedFiles(c.dir)).toEqual([]);
        const again = await fc(c, split(c));
        expect(again.status, again.stderr).toBe(0);
        expect((await fc(c, ['tick', c.dir])).status).toBe(0);
      } else if (expected === 'completed') {
        expect(said).toMatch(/was interrupted after it had changed the campaign; it has now been completed/);
        // Run again, it is refused: it is done.
        const again = await fc(c, split(c));
        expect(again.status).toBe(1);
        expect(again.stderr).toContain('there is already a nation "ashfree"');
      } else {
        expect(said).not.toContain('interrupted');
      }

      expect(readFileSync(join(c.dir, 'campaign.yaml'), 'utf8')).toContain('ashfree:');
      expect(tokens(c).ashfree).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(stagedFiles(c.dir)).toEqual([]);
      const rt = (await readRuntime(c.dir))!;
      expect(rt.operation).toBeUndefined();
      expect(rt.log.filter((l) => l.op === 'nation-split')).toHaveLength(1);
      expect(rt.notices.filter((n) => n.kind === 'nation-split' || n.kind === 'nation-added').map((n) => [n.kind, n.nations, n.sent])).toEqual([
        ['nation-split', ['vulcanstille'], true],
        ['nation-added', ['ashfree'], true],
      ]);
      const mails = await queue(c);
      expect(mails.filter((q) => to(q, 'magister@vulcanstille.test') && q.message.subject.includes('nation split'))).toHaveLength(1);
      const welcome = mails.filter((q) => to(q, 'oska@ash.test'));
      expect(welcome).toHaveLength(1);
      expect(welcome[0]!.message.text).toContain(tokens(c).ashfree!);
    });
  }
});

/**
 * A seat taken by mail (`accept`, issue 35) is the same whole operation: killed at each of its steps inside
 * the tick that reads the "accept", the next tick completes it or undoes it (and then takes the seat from the
 * same mail, whose ledger entry was decided but not done); either way the seat is taken once — one token,
 * the old one refused as replaced, one tenure, one log line, the story told once — and the welcome goes out
 * once. The old code kept its own stepwise record on the invitation instead, with no failpoints and no word
 * to the GM.
 */
describe('a seat taken by mail (`accept`) killed at every step', () => {
  const MARA = 'mara@volunteer.test';
  const POINTS = { 'gm-op-recorded': 'undone', 'gm-files-staged': 'undone', 'gm-journal-written': 'completed', 'gm-files-committed': 'completed', 'gm-token-set': 'completed', 'gm-op-finished': 'whole', 'seat-welcome-queued': 'whole' } as const;
  let offered: Copy;

  beforeAll(async () => {
    offered = copy('offered');
    const offer = await fc(offered, ['nation', 'offer', offered.dir, 'grarkul', MARA]);
    expect(offer.status, offer.stderr).toBe(0);
    const invitation = (await queue(offered)).find((q) => to(q, MARA))!;
    const code = /accept ([a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5})/.exec(invitation.message.text ?? '')![1]!;
    const eml = [`From: Mara Silva <${MARA}>`, 'To: turns@silversheen.test', `Subject: Re: ${invitation.message.subject}`, 'Message-ID: <accept-1@volunteer.test>', 'Date: Thu, 20 Mar 2025 09:00:00 +0000', 'Content-Type: text/plain; charset=utf-8', '', `accept ${code}`, ''].join('\r\n');
    writeFileSync(join(offered.dir, 'mail', 'inbox', '001.eml'), eml);
  });

  /** A copy of the campaign with the invitation out and the "accept" in the inbox. */
  const acceptCopy = (label: string): Copy => {
    const root = scratchDir(label);
    const c = { dir: join(root, 'silversheen'), secrets: join(root, 'silversheen.secrets.yaml') };
    cpSync(offered.dir, c.dir, { recursive: true });
    copyFileSync(offered.secrets, c.secrets);
    return c;
  };

  for (const [point, expected] of Object.entries(POINTS)) {
    it(`at ${point}: ${expected === 'whole' ? 'it was whole already' : `the next tick ${expected === 'undone' ? 'undoes it and takes the seat from the same mail' : 'completes it'}`}; the seat is taken once, the welcome mailed once`, async () => {
      const c = acceptCopy(`accept-${point}`);
      const old = tokens(c).grarkul!;
      const killed = killedAt(c, ['tick', c.dir], point);
      expect(killed.signal, `${killed.stdout}${killed.stderr}`).toBe('SIGKILL');

      const after = await fc(c, ['tick', c.dir]);
      expect(after.status, after.stderr).toBe(0);
      const said = `${after.stdout}${after.stderr}`;
      if (expected === 'undone') expect(said).toMatch(/the seat taken by mail "accept of invitation 1 \(the seat of grarkul\) by mara@volunteer\.test" \(started .*\) was interrupted before it changed anything; it has been undone/);
      else if (expected === 'completed') expect(said).toMatch(/the seat taken by mail "accept of invitation 1 .*" \(started .*\) was interrupted after it had changed the campaign; it has now been completed/);
      else expect(said).not.toContain('interrupted');
      // Another tick changes nothing.
      expect((await fc(c, ['tick', c.dir])).status).toBe(0);

      const now = tokens(c).grarkul!;
      expect(now).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(now).not.toBe(old);
      expect(stagedFiles(c.dir)).toEqual([]);
      const rt = (await readRuntime(c.dir))!;
      expect(rt.operation).toBeUndefined();
      expect(rt.retiredTokens.grarkul).toEqual([tokenDigest(old)]);
      expect(rt.offers).toEqual([expect.objectContaining({ id: 1, status: 'accepted' })]);
      expect(rt.seats?.grarkul?.filter((t) => t.player.includes(MARA))).toEqual([expect.objectContaining({ fromTurn: 1 })]);
      expect(rt.log.filter((l) => l.op === 'seat-taken')).toHaveLength(1);
      expect(rt.alerts.filter((a) => a.kind === 'recovered')).toHaveLength(expected === 'whole' ? 0 : 1);
      expect(readFileSync(join(c.dir, 'campaign.yaml'), 'utf8')).toMatch(new RegExp(`grarkul:[\\s\\S]*?email:\\s*\\n?\\s*-? ?\\[?"?${MARA.replace(/\./g, '\\.')}`));
      expect(readFileSync(join(c.dir, 'orders', '0001', '_gm.yaml'), 'utf8').match(/A new hand at the helm/g)).toHaveLength(1);

      const mails = await queue(c);
      const welcome = mails.filter((q) => to(q, MARA) && q.message.subject.includes('Welcome'));
      expect(welcome).toHaveLength(1);
      expect(welcome[0]!.status).toBe('sent');
      expect(welcome[0]!.message.text).toContain(`Your order token: ${now}`);
      expect(mails.filter((q) => q.message.subject.includes('accepted the seat') || q.message.subject.includes('takes the seat')).length).toBeLessThanOrEqual(1);
    });
  }
});
