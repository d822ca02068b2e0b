import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../src/web/desk.js';
import { packTurns } from '../../src/campaign/packed-reports.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { reportRenderer } from '../../src/report/renderer.js';
import { Client, deskOver, startedDemo, TOKENS, type DeskCampaignCopy } from './support.js';

/**
 * The desk keeps each nation's report page taken apart (stored-reports.ts, shownReport), so a page asked for
 * again is not read from disk: it must never serve one nation's report to another, nor an old report after
 * a re-render or a new turn.
 */
let copy: DeskCampaignCopy;
let desk: Desk;
const base = '/c/silversheen';

beforeAll(async () => {
  copy = await startedDemo('report-cache');
  desk = deskOver([copy]);
});
afterAll(() => copy?.cleanup());

async function player(nation: string): Promise<Client> {
  const client = new Client(desk);
  expect((await client.signInWithToken('silversheen', TOKENS[nation]!)).status).toBe(303);
  return client;
}

const reportFile = (nation: string, turn: number) => join(copy.dir, 'turns', String(turn).padStart(4, '0'), 'reports', `${nation}.html`);
/** The stored report's map: what only that nation's report shows (its class in either case: one test rewrites it). */
const mapOf = (html: string) => /<svg[^>]*class="fatecraft-(?:map|MAP)"[\s\S]*?<\/svg>/.exec(html)![0];

describe('the kept report pages', () => {
  it("each nation gets its own report, asked for in turn and again: never the one kept for another", async () => {
    const [argenta, other] = Object.keys(TOKENS) as [string, string];
    const a = await player(argenta);
    const b = await player(other);
    const mapA = mapOf(readFileSync(reportFile(argenta, 0), 'utf8'));
    const mapB = mapOf(readFileSync(reportFile(other, 0), 'utf8'));
    expect(mapA).not.toBe(mapB);
    for (let round = 0; round < 2; round++) {
      const pageA = (await a.get(`${base}/report`)).text;
      const pageB = (await b.get(`${base}/report`)).text;
      expect(pageA).toContain(mapA);
      expect(pageA).not.toContain(mapB);
      expect(pageB).toContain(mapB);
      expect(pageB).not.toContain(mapA);
    }
  });

  it('a report written again is served as it is now, even at the same size and with its old modification time', async () => {
    const nation = Object.keys(TOKENS)[1]!;
    const client = await player(nation);
    const file = reportFile(nation, 0);
    // A modification time of whole seconds, so that it can be put back exactly.
    const when = Math.floor(statSync(file).mtimeMs / 1000) - 60;
    utimesSync(file, when, when);
    const before = readFileSync(file, 'utf8');
    expect((await client.get(`${base}/report`)).text).toContain(mapOf(before));
    // Written in place (the same inode), the same length, the modification time put back: only the change time tells.
    const rewritten = before.replace('class="fatecraft-map"', 'class="fatecraft-MAP"');
    expect(rewritten.length).toBe(before.length);
    writeFileSync(file, rewritten);
    utimesSync(file, when, when);
    const page = (await client.get(`${base}/report`)).text;
    expect(page).toContain('class="fatecraft-MAP"');
    expect(page).not.toContain(mapOf(before));
  });

  it("a new turn's report is served once the turn is resolved; the earlier turn's stays in the archive", async () => {
    const nation = Object.keys(TOKENS)[0]!;
    const client = await player(nation);
    const turn0 = (await client.get(`${base}/report`)).text;
    expect(turn0).toContain(mapOf(readFileSync(reportFile(nation, 0), 'utf8')));
    expect(turn0).not.toMatch(/<title>Turn 1 /);
    // The turn resolved as `fatecraft run` resolves it (whoever sent orders), its reports written.
    await runTurn(copy.dir, { renderers: [reportRenderer()] });
    const map1 = mapOf(readFileSync(reportFile(nation, 1), 'utf8'));
    const latest = (await client.get(`${base}/report`)).text;
    expect(latest).toContain(map1);
    expect(latest).toMatch(/<title>Turn 1 /);
    expect((await client.get(`${base}/turns/0`)).text).toContain(mapOf(readFileSync(reportFile(nation, 0), 'utf8')));
  });

  it("a packed turn's reports (one archive for every nation): each nation still gets its own", async () => {
    const [argenta, other] = Object.keys(TOKENS) as [string, string];
    const mapA = mapOf(readFileSync(reportFile(argenta, 0), 'utf8'));
    const mapB = mapOf(readFileSync(reportFile(other, 0), 'utf8'));
    await packTurns(copy.dir, [0]);
    const a = await player(argenta);
    const b = await player(other);
    for (let round = 0; round < 2; round++) {
      const pageA = (await a.get(`${base}/turns/0`)).text;
      const pageB = (await b.get(`${base}/turns/0`)).text;
      expect(pageA).toContain(mapA);
      expect(pageB).toContain(mapB);
      expect(pageB).not.toContain(mapA);
    }
  });
});
