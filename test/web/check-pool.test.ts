import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asNationId } from '../../src/core/ids.js';
import { DeskCampaign, type CampaignReader } from '../../src/web/campaigns.js';
import type { CheckJob } from '../../src/web/check-job.js';
import { Checker } from '../../src/web/check-pool.js';
import type { Desk } from '../../src/web/desk.js';
import { awaiting, waitUntil } from '../support/awaiting.js';
import { ensureBuilt, ROOT, runBuilt } from '../support/built-cli.js';
import { hangLimit } from '../support/limits.js';
import { ADDRESSES, Client, csrfOf, deskOver, startedDemo, TOKENS, type DeskCampaignCopy } from './support.js';

/**
 * The desk's checker threads (src/web/check-pool.ts), from the worker as it ships (bundled: scripts/bundle.mjs):
 * their answer is the mail's and the `check` command's, and a flood of checks waiting for them does not hold
 * up the pages.
 */
const WORKER = join(ROOT, 'dist', 'fatecraft', 'check-worker.js');
const base = '/c/silversheen';
let copy: DeskCampaignCopy;

beforeAll(async () => {
  ensureBuilt();
  copy = await startedDemo('pool');
});
afterAll(() => copy?.cleanup());

const TEXT = 'hold Harbour Marines\nmove Argentum Gaurd to 17,5\nmove Quicksilver Riders to 23,5\n';

/** A check of Argenta's sheet, as the live check asks it (without the form's turn: the file names none either). */
const judge = (text: string): Extract<CheckJob, { kind: 'judge' }> => ({ kind: 'judge', dir: copy.dir, nation: asNationId('argenta'), text, token: TOKENS.argenta, retired: [], onFile: false, late: false, address: ADDRESSES.argenta! });

/** The campaign as the desk's thread reads it, except that reading the state there fails the test. */
function withoutState(campaign: DeskCampaign): CampaignReader {
  return { slug: campaign.slug, dir: campaign.dir, version: () => campaign.version(), view: () => campaign.view(), runtime: () => campaign.runtime(), secrets: () => campaign.secrets(), state: () => Promise.reject(new Error('the desk thread read the state')) };
}

describe('the checker threads', () => {
  it("answer a check with the receipt `fatecraft check` prints for the same sheet and token, byte for byte, and the desk thread's answer", async () => {
    const checker = new Checker({ threads: 2, workerFile: WORKER });
    const here = new Checker({ threads: 0 });
    try {
      expect(checker.threads).toBe(2);
      const campaign = new DeskCampaign('silversheen', copy.dir, copy.env);
      const { decision } = await awaiting('a checker thread', checker.check(withoutState(campaign), judge(TEXT)));
      expect(decision.kind).toBe('file');
      const receipt = 'receipt' in decision ? decision.receipt : undefined;
      expect(receipt?.linesOf).toBe('the order form');

      const file = join(copy.root, 'argenta.txt');
      writeFileSync(file, `${TEXT}Token: ${TOKENS.argenta}\n`);
      const run = runBuilt(['check', copy.dir, file, '--nation', 'argenta', '--token', TOKENS.argenta!, '--json'], { env: { FATECRAFT_SECRETS: copy.secretsFile } });
      expect(run.stderr).toBe('');
      // The command counts the lines of the file; the desk says they are the form's. Nothing else differs.
      expect(`${JSON.stringify({ ...receipt, linesOf: undefined }, null, 2)}\n`).toBe(run.stdout);

      const inThread = await here.check(campaign, judge(TEXT));
      expect(JSON.stringify(inThread.decision)).toBe(JSON.stringify(decision));
    } finally {
      await checker.close();
    }
  });

  it('keep the answer to an unchanged sheet: asked again, no thread is asked', async () => {
    const checker = new Checker({ threads: 1, workerFile: WORKER });
    try {
      const campaign = withoutState(new DeskCampaign('silversheen', copy.dir, copy.env));
      const first = await awaiting('a checker thread', checker.check(campaign, judge(TEXT)));
      const release = checker.hold();
      // Held, the threads take no job: a kept answer comes back all the same, a new sheet waits.
      const again = await checker.check(campaign, judge(TEXT));
      expect(again).toBe(first);
      const other = checker.check(campaign, judge(`${TEXT}hold Argentum Guard\n`));
      await waitUntil('the new sheet to wait for a thread', () => checker.waiting === 1, hangLimit(10_000));
      release();
      expect((await awaiting('the new sheet checked', other)).decision.kind).toBe('file');
    } finally {
      await checker.close();
    }
  });
});

describe('the answers kept', () => {
  it('are bounded by their lines as well as their number: a long answer is worked out again', async () => {
    const checker = new Checker({ threads: 0, keptLines: 10 });
    const campaign = new DeskCampaign('silversheen', copy.dir, copy.env);
    const short = await checker.check(campaign, judge(TEXT));
    expect(await checker.check(campaign, judge(TEXT))).toBe(short);
    const long = `${TEXT}${'hold Harbour Marines\n'.repeat(20)}`;
    const first = await checker.check(campaign, judge(long));
    const again = await checker.check(campaign, judge(long));
    expect(again).not.toBe(first);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  });
});

describe('a flood of checks', () => {
  let desk: Desk;
  beforeAll(() => {
    desk = deskOver([copy], { checker: { threads: 1, workerFile: WORKER, queueLimit: 8 } });
  });
  afterAll(() => desk?.close());

  it('waits for the checker while report pages are served; past the queue the player is told to try again; then every check is answered', async () => {
    const client = new Client(desk);
    expect((await client.signInWithToken('silversheen', TOKENS.argenta!)).status).toBe(303);
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    const release = desk.checker.hold();
    const settled: boolean[] = [];
    // Eight sheets, each new (a kept answer would not wait): they fill the queue.
    const checks = Array.from({ length: 8 }, (_, i) => {
      const reply = client.post(`${base}/orders/check`, { csrf, turn: '1', text: `${TEXT}${'hold Harbour Marines\n'.repeat(i)}` });
      void reply.then(() => (settled[i] = true));
      return reply;
    });
    await waitUntil('eight checks waiting for the checker', () => desk.checker.waiting === 8, hangLimit(20_000));

    const busy = await client.post(`${base}/orders/check`, { csrf, turn: '1', text: `${TEXT}hold Argentum Guard\n` });
    expect(busy.status).toBe(503);
    expect(busy.text).toContain('The order checker is busy');
    const report = await client.get(`${base}/report`);
    expect(report.status).toBe(200);
    expect(report.text).toContain('class="report"');
    const orders = await client.get(`${base}/orders`);
    expect(orders.status).toBe(200);
    expect(settled.filter(Boolean)).toHaveLength(0);

    release();
    const answered = await awaiting('the eight checks', Promise.all(checks));
    expect(answered.map((r) => r.status)).toEqual(Array(8).fill(200));
    for (const r of answered) expect(r.text).toContain('data-line="2">line 2</a>: <q>move Argentum Gaurd to 17,5</q>');
  });
});
