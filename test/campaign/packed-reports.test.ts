import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { finishPacking, isPacked, packTurns, readPackedReports, PACKED_REPORTS } from '../../src/campaign/packed-reports.js';
import { openCampaign, readState, readTurnEvents } from '../../src/campaign/store.js';
import { checkTurnFolder } from '../../src/campaign/turn-manifest.js';
import { readTarGz, TAR_END, tarEntry } from '../../src/campaign/tar.js';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { renderReports } from '../../src/report/renderer.js';
import { writeReports } from '../../src/report/write.js';
import { cleanupScratch, demoCopy, tree, writeOrders, NATIONS } from '../schedule/support.js';
import { setReportSettings } from '../support/campaign-file.js';

const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-pack-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  cleanupScratch();
});

const reportsOf = (dir: string, turn: string) => tree(join(dir, 'turns', turn, 'reports'));
const asText = (files: Map<string, Buffer>) => Object.fromEntries([...files].map(([k, v]) => [k, v.toString('utf8')]));

/** A demo campaign keeping `keep` turns' reports loose, played `turns` turns by hand. */
async function played(label: string, keep: number, turns: number) {
  const dir = demoCopy(label);
  setReportSettings(dir, { keepTurns: keep });
  const loose: Record<string, Record<string, string>> = {};
  for (let t = 1; t <= turns; t++) {
    if (t > 1) writeOrders(dir, t, NATIONS);
    await runTurn(dir, { renderers: turnRenderers() });
    loose[String(t).padStart(4, '0')] = reportsOf(dir, String(t).padStart(4, '0'));
  }
  return { dir, loose };
}

describe('the tar archives', () => {
  it('read back what they were written with, long names too, and any tar reads them', async () => {
    const long = `reports/${'n'.repeat(120)}.txt`;
    const files: [string, Buffer][] = [['reports/a.txt', Buffer.from('alpha\n')], ['reports/empty.txt', Buffer.alloc(0)], [long, Buffer.alloc(1500, 'x')]];
    const path = join(scratch, 'a.tar.gz');
    function* tar() {
      for (const [name, bytes] of files) yield* tarEntry(name, bytes);
      yield TAR_END;
    }
    await pipeline(tar, createGzip(), createWriteStream(path));
    const back: [string, Buffer][] = [];
    for await (const e of readTarGz(path)) back.push([e.name, e.bytes]);
    expect(back).toEqual(files);
    const listed = spawnSync('tar', ['tzf', path], { encoding: 'utf8' });
    if (listed.status === 0) expect(listed.stdout.trim().split('\n')).toEqual(files.map(([n]) => n));
  });
});

describe("old turns' reports", () => {
  it('are packed once newer turns are in, byte for byte, and re-render to the same bytes from state and events', async () => {
    const { dir, loose } = await played('pack', 1, 2);
    const folder = join(dir, 'turns', '0001');
    expect(readdirSync(folder).sort()).toEqual(['events.yaml', 'manifest.yaml', 'orders', PACKED_REPORTS, 'state.yaml']);
    expect(readFileSync(join(folder, 'manifest.yaml'), 'utf8')).toContain(`- ${PACKED_REPORTS}`);
    expect(existsSync(join(dir, 'turns', '0002', 'reports'))).toBe(true);
    expect(asText(await readPackedReports(folder))).toEqual(loose['0001']);
    // Rendered again from the turn's state, events and orders: the same bytes as the packed ones.
    const open = await openCampaign(dir);
    const rendered = await renderReports({ open, before: await readState(dir, 0, open.campaign), state: await readState(dir, 1, open.campaign), events: await readTurnEvents(dir, 1), turn: 1 });
    expect(Object.fromEntries(Object.entries(rendered).map(([k, v]) => [k.slice('reports/'.length), v]))).toEqual(loose['0001']);
    // `fatecraft report` on a packed turn writes into its archive: the same archive, byte for byte.
    const archive = readFileSync(join(folder, PACKED_REPORTS));
    const written = await writeReports(dir, { turn: 1 });
    expect(written.packed).toBe(true);
    expect(readFileSync(join(folder, PACKED_REPORTS)).equals(archive)).toBe(true);
    await writeReports(dir, { turn: 1, nations: ['argenta'], gm: false });
    expect(readFileSync(join(folder, PACKED_REPORTS)).equals(archive)).toBe(true);
  });

  it('lost from a packed turn are reports to make again, not a turn to resolve again', async () => {
    const { dir, loose } = await played('pack-lost', 1, 2);
    const folder = join(dir, 'turns', '0001');
    rmSync(join(folder, PACKED_REPORTS));
    expect(await checkTurnFolder(folder, 1)).toMatchObject({ kind: 'reports', detail: `${PACKED_REPORTS} missing` });
    await writeReports(dir, { turn: 1 });
    expect(reportsOf(dir, '0001')).toEqual(loose['0001']);
    expect(await checkTurnFolder(folder, 1)).toBeUndefined();
  });

  it('stay loose with keepTurns: all', async () => {
    const { dir } = await played('pack-all', 1, 1);
    const text = readFileSync(join(dir, 'campaign.yaml'), 'utf8').replace('keepTurns: 1', 'keepTurns: all');
    writeFileSync(join(dir, 'campaign.yaml'), text);
    writeOrders(dir, 2, NATIONS);
    await runTurn(dir, { renderers: turnRenderers() });
    expect(isPacked(join(dir, 'turns', '0001'))).toBe(false);
  });

  it('cut short by a crash are left whole in one form or the other, and finished by repair or the next turn', async () => {
    const { dir, loose } = await played('pack-crash', 2, 2);
    const folder = join(dir, 'turns', '0001');
    // A crash after the archive was put in place and before the loose reports went: both forms.
    cpSync(folder, join(scratch, 'loose-0001'), { recursive: true });
    await packTurns(dir, [1]);
    cpSync(join(scratch, 'loose-0001', 'reports'), join(folder, 'reports'), { recursive: true });
    expect(await finishPacking(dir)).toEqual([1]);
    expect(existsSync(join(folder, 'reports'))).toBe(false);
    expect(asText(await readPackedReports(folder))).toEqual(loose['0001']);
    // A crash while the archive was being written leaves a temporary the next packing clears.
    writeFileSync(join(dir, 'turns', '0002', '.reports.tar.gz.partial-999999'), 'half');
    writeOrders(dir, 3, NATIONS);
    writeOrders(dir, 4, NATIONS);
    await runTurn(dir, { renderers: turnRenderers() });
    await runTurn(dir, { renderers: turnRenderers() });
    expect(readdirSync(join(dir, 'turns', '0002')).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(asText(await readPackedReports(join(dir, 'turns', '0002')))).toEqual(loose['0002']);
  });
});
