import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { tokenDigest } from '../../src/campaign/secrets.js';
import { OutboxQueue, type QueuedMessage } from '../../src/mailroom/outbox.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { CLI, cleanupScratch, demoCopy, ensureBuilt, scratchDir } from '../schedule/support.js';

/**
 * `fatecraft nation split` and `fatecraft token --new` are whole or absent after a crash (issue 33): killed
 * (SIGKILL, by the failpoints the turn uses: FATECRAFT_FAILPOINT) at every step, the next command — here the
 * tick — completes the operation or undoes it, and says which; run again when undone, it ends as an
 * uninterrupted run would, with every mail to the players once. The old code left a split nation with no
 * token and refused to run the split again, and a replaced token mailed to no one, both without a word.
 */
beforeAll(ensureBuilt, 120_000);
afterAll(cleanupScratch);

const NOW = '2025-03-20T10:00:00Z'; // before turn 1's deadline (Sunday 23 March, 18:00 London)

interface Copy {
  dir: string;
  secrets: string;
}

let base: Copy;
let town: string;
let unit: string;

function fc(c: Copy, args: string[], failpoint?: string) {
  const env = { ...process.env, FATECRAFT_NOW: NOW, FATECRAFT_SECRETS: c.secrets, FATECRAFT_LOCK_WAIT: '0', ...(failpoint ? { FATECRAFT_FAILPOINT: failpoint } : {}) };
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env });
}

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
  const started = fc(base, ['start', base.dir]);
  expect(started.status, started.stderr).toBe(0);
  const open = await openCampaign(base.dir);
  const state = await readState(base.dir, 0, open.campaign);
  const vulcan = asNationId('vulcanstille');
  town = Object.values(state.settlements).find((s) => s.nation === vulcan && s.level !== 'capital')!.id;
  unit = Object.values(state.units).find((u) => u.nation === vulcan && u.hex !== state.settlements[town as never]!.hex)!.id;
}, 120_000);

describe('`fatecraft token --new` killed at every step', () => {
  const POINTS = { 'gm-op-recorded': 'undone', 'gm-files-committed': 'undone', 'gm-token-set': 'completed', 'gm-op-finished': 'whole', 'gm-mail-queued': 'whole' } as const;

  for (const [point, expected] of Object.entries(POINTS)) {
    it(`at ${point}: ${expected === 'whole' ? 'it was whole already' : `the next command ${expected === 'undone' ? 'undoes' : 'completes'} it`}, and the player gets the new token once`, async () => {
      const c = copy(`token-${point}`);
      const old = tokens(c).argenta!;
      const killed = fc(c, ['token', c.dir, 'argenta', '--new'], point);
      expect(killed.signal, `${killed.stdout}${killed.stderr}`).toBe('SIGKILL');

      const after = fc(c, ['tick', c.dir]);
      expect(after.status, after.stderr).toBe(0);
      const said = `${after.stdout}${after.stderr}`;
      const replaced = tokens(c).argenta !== old;
      if (expected === 'undone') {
        expect(said).toContain('"fatecraft token');
        expect(said).toMatch(/was interrupted before it changed anything; it has been undone and nothing was done/);
        expect(replaced).toBe(false);
        expect((await queue(c)).filter((q) => to(q, 'duke@argenta.test') && q.message.subject.includes('new order token'))).toEqual([]);
        const again = fc(c, ['token', c.dir, 'argenta', '--new']);
        expect(again.status, again.stderr).toBe(0);
      } else if (expected === 'completed') {
        expect(said).toMatch(/was interrupted after it had changed the campaign; it has now been completed/);
        expect(replaced).toBe(true);
        expect(fc(c, ['tick', c.dir]).status).toBe(0);
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
    }, 180_000);
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
      const killed = fc(c, split(c), point);
      expect(killed.signal, `${killed.stdout}${killed.stderr}`).toBe('SIGKILL');

      const after = fc(c, ['tick', c.dir]);
      expect(after.status, after.stderr).toBe(0);
      const said = `${after.stdout}${after.stderr}`;
      if (expected === 'undone') {
        expect(said).toMatch(/"fatecraft nation split .* vulcanstille ashfree" \(started .*\) was interrupted before it changed anything; it has been undone and nothing was done/);
        expect(readFileSync(join(c.dir, 'campaign.yaml'), 'utf8')).toBe(campaignBefore);
        expect(readFileSync(join(c.dir, 'turns', '0000', 'state.yaml'), 'utf8')).toBe(stateBefore);
        expect(tokens(c).ashfree).toBeUndefined();
        expect(stagedFiles(c.dir)).toEqual([]);
        const again = fc(c, split(c));
        expect(again.status, again.stderr).toBe(0);
        expect(fc(c, ['tick', c.dir]).status).toBe(0);
      } else if (expected === 'completed') {
        expect(said).toMatch(/was interrupted after it had changed the campaign; it has now been completed/);
        // Run again, it is refused: it is done.
        const again = fc(c, split(c));
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
    }, 180_000);
  }
});
