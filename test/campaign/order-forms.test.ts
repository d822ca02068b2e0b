import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planOrderFolder, removeOtherOrderFiles } from '../../src/campaign/order-folder.js';
import { cleanupScratch, demoCopy, scratchDir } from '../schedule/support.js';
import { runInProcess } from '../support/command-line.js';

/**
 * Issue 34, item 1: orders a GM files as `.txt` were ignored without a word
 * by `turn`, `rerun`, `turn --preview` and `status`, though `fatecraft check`
 * read them; and the rerun then mailed "corrected" reports in which nothing
 * had changed. Every form `check` reads now counts as the nation's orders
 * where the GM puts it (<nation>.yaml, .yml, .txt), every file there that is
 * not read is named by every command that skips it, and a rerun that would
 * change nothing says so and does nothing. Through the built command line.
 */
afterAll(cleanupScratch);

const secrets = join(scratchDir('secrets'), 'forms.secrets.yaml');
// The commands run in this process (their wiring through the built CLI: test/cli/command-line.test.ts).
const run = (args: string[], now: string) => runInProcess(args, { env: { FATECRAFT_NOW: now, FATECRAFT_SECRETS: secrets } });

const BEFORE = '2025-03-20T10:00:00Z';
const MAIL = ['From: Grim <grim@gondarahl.example>', 'To: turns@silversheen.example', 'Subject: orders', 'Message-ID: <x1@gondarahl.example>', '', 'Token: whatever', 'hold Ironguard of Kharnik', ''].join('\r\n');

describe('orders the GM files by hand, in every form check reads', () => {
  const dir = demoCopy('forms');
  const orders = join(dir, 'orders', '0001');
  rmSync(join(orders, 'argenta.yaml'));
  writeFileSync(join(orders, 'argenta.txt'), 'Nation: argenta\nTurn: 1\nhold Argentum Guard\nnote Filed by the GM from a letter.\n');
  renameSync(join(orders, 'gondarahl.yaml'), join(dir, 'gondarahl-kept-aside.yaml'));
  writeFileSync(join(orders, 'gondarahl.eml'), MAIL);
  writeFileSync(join(orders, 'bob.txt'), 'hold everything\n');

  it('status counts the .txt as the nation\'s orders and names every file it does not read', async () => {
    expect((await run(['tick', dir], BEFORE)).status).toBe(0);
    const status = await run(['status', dir], BEFORE);
    expect(status.stdout).toMatch(/argenta\s+submitted/);
    expect(status.stdout).toMatch(/gondarahl\s+waiting/);
    expect(status.stdout).toContain('NOT READ: orders/0001/bob.txt is not read as orders: no nation "bob" in campaign.yaml');
    expect(status.stdout).toContain('NOT READ: orders/0001/gondarahl.eml is not read as orders: a mail with no order sheet beside it is not read as orders');
    const check = await run(['status', dir, '--check'], BEFORE);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('2 files in orders/ not read as orders');
  });

  it('turn --preview reads the .txt and names the files it does not read', async () => {
    const preview = await run(['turn', dir, '--preview'], BEFORE);
    expect(preview.status, preview.stderr).toBe(0);
    expect(preview.stdout).toContain('NOT READ as orders: orders/0001/gondarahl.eml — a mail with no order sheet beside it is not read as orders');
    expect(preview.stdout).toContain('NOT READ as orders: orders/0001/bob.txt');
    expect(readFileSync(join(dir, 'previews', '0001', 'events.yaml'), 'utf8')).toContain('Filed by the GM from a letter.');
  });

  it('turn resolves with the .txt, keeps it with the turn, and names the files it does not read', async () => {
    const turn = await run(['turn', dir], BEFORE);
    expect(turn.status, turn.stderr).toBe(0);
    expect(turn.stdout).toContain('NOT READ as orders: orders/0001/gondarahl.eml');
    expect(readFileSync(join(dir, 'turns', '0001', 'orders', 'argenta.txt'), 'utf8')).toContain('hold Argentum Guard');
    expect(readFileSync(join(dir, 'turns', '0001', 'events.yaml'), 'utf8')).toContain('Filed by the GM from a letter.');
    const report = readFileSync(join(dir, 'turns', '0001', 'reports', 'argenta.txt'), 'utf8');
    expect(report).toContain('Orders: 2 carried out.');
    expect(report).toContain('Filed by the GM from a letter.');
    // Gondarahl's mail was not read: it sent no orders.
    expect(readFileSync(join(dir, 'turns', '0001', 'reports', 'gondarahl.txt'), 'utf8')).toContain('Orders: none received.');
  });

  it('rerun with nothing changed says so, names what it did not read, and neither resolves nor mails anything', async () => {
    const rerun = await run(['rerun', dir, '1'], BEFORE);
    expect(rerun.status).toBe(1);
    expect(rerun.stderr).toContain('turn 1 resolved again gives the state and events it has now');
    expect(rerun.stderr).toContain('no corrected reports will be mailed');
    expect(rerun.stderr).toContain('orders/0001/gondarahl.eml is not read as orders');
    expect(readdirSync(join(dir, 'turns')).filter((n) => n.startsWith('0001'))).toEqual(['0001']);
    expect(readFileSync(join(dir, 'runtime.yaml'), 'utf8')).not.toMatch(/rerun: 1/);
    // The orders it put back for the look are let go again.
    expect(readdirSync(orders).sort()).toEqual(['bob.txt', 'gondarahl.eml']);
  });

  it('rerun reads a .txt the GM puts in for a nation, over the orders the turn kept', async () => {
    writeFileSync(join(orders, 'gondarahl.txt'), 'Nation: gondarahl\nTurn: 1\nnote The GM read the mail and filed it.\n');
    const rerun = await run(['rerun', dir, '1'], BEFORE);
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(existsSync(join(dir, 'turns', '0001.superseded-1'))).toBe(true);
    expect(readFileSync(join(dir, 'turns', '0001', 'events.yaml'), 'utf8')).toContain('The GM read the mail and filed it.');
    expect(readFileSync(join(dir, 'runtime.yaml'), 'utf8')).toMatch(/turn: 1\n\s+rerun: 1/);
  });

  it('refuses to resolve a turn with two order files for one nation, naming both', async () => {
    const next = join(dir, 'orders', '0002');
    mkdirSync(next, { recursive: true });
    writeFileSync(join(next, 'argenta.yaml'), 'nation: argenta\nturn: 2\norders: []\n');
    writeFileSync(join(next, 'argenta.txt'), 'Nation: argenta\nTurn: 2\n');
    const turn = await run(['turn', dir], BEFORE);
    expect(turn.status).not.toBe(0);
    expect(turn.stderr).toContain('argenta.txt and argenta.yaml are both orders of argenta');
    expect(existsSync(join(dir, 'turns', '0002'))).toBe(false);
  });
});

describe('which names are orders', () => {
  const isNation = (id: string) => ['argenta', 'gondarahl'].includes(id);

  it('reads .yaml, .yml and .txt by the nation\'s id; the mail beside a sheet is its copy', async () => {
    const plan = planOrderFolder(['argenta.yml', 'gondarahl.txt', 'gondarahl.eml', '_gm.yaml', '.argenta.yaml.tmp'], isNation);
    expect(plan.orders).toEqual([
      { name: 'argenta.yml', nation: 'argenta', format: 'yaml' },
      { name: 'gondarahl.txt', nation: 'gondarahl', format: 'text' },
    ]);
    expect(plan.unread).toEqual([]);
  });

  it('names what it does not read, and why', async () => {
    const plan = planOrderFolder(['Argenta.txt', 'argenta.yaml.bak', 'gondarahl.eml', 'notes.md'], isNation);
    expect(plan.orders).toEqual([]);
    expect(plan.unread.map((u) => [u.name, u.why.split(':')[0]])).toEqual([
      ['Argenta.txt', 'nation ids are written in small letters'],
      ['argenta.yaml.bak', 'not an order file'],
      ['gondarahl.eml', 'a mail with no order sheet beside it is not read as orders'],
      ['notes.md', 'not an order file'],
    ]);
  });

  it('a sheet filed from mail replaces the nation\'s order file in another form', async () => {
    const folder = scratchDir('replace');
    for (const name of ['argenta.yaml', 'argenta.txt', 'argenta.eml', 'gondarahl.txt']) writeFileSync(join(folder, name), 'x');
    expect(await removeOtherOrderFiles(folder, 'argenta')).toEqual(['argenta.txt']);
    expect(readdirSync(folder).sort()).toEqual(['argenta.eml', 'argenta.yaml', 'gondarahl.txt']);
  });
});
