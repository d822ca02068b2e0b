import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RENDER_INPUTS_FILE } from '../../src/campaign/render-inputs.js';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, demoCopy, scratchDir, tree } from '../schedule/support.js';

/**
 * A turn folder that is not whole is found (manifest.yaml, written last) and
 * named with the command that repairs it, by status, tick and turn alike;
 * `fatecraft repair` puts it aside and the turn resolves again to the same bytes.
 */
afterAll(cleanupScratch);

const NOW = '2025-03-23T18:15:00Z';
const fatecraft = (...args: string[]) => runInProcess(args, { env: { FATECRAFT_NOW: NOW, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml') } });
const turnFolder = (dir: string) => tree(join(dir, 'turns', '0001'));

describe('a damaged turn folder', () => {
  it('missing its state: status says so and how to repair; tick and turn stop with the same words; repair and turn restore it', async () => {
    const dir = demoCopy('incomplete');
    expect((await fatecraft('turn', dir)).status).toBe(0);
    const whole = turnFolder(dir);
    rmSync(join(dir, 'turns', '0001', 'state.yaml'));
    rmSync(join(dir, 'turns', '0001', 'events.yaml'));

    const status = await fatecraft('status', dir);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/DAMAGED TURN: .*turns\/0001 is incomplete \(events\.yaml, state\.yaml missing\): turn 1 was not written whole\. Put it aside and resolve the turn again with: fatecraft repair /);
    for (const command of ['tick', 'turn']) {
      const r = await fatecraft(command, dir);
      expect(r.status, command).toBe(1);
      expect(r.stderr, command).toMatch(/turns\/0001 is incomplete \(events\.yaml, state\.yaml missing\).*fatecraft repair/);
      expect(r.stderr, command).not.toMatch(/ENOENT|at .*\.[jt]s:\d+/);
    }

    const repair = await fatecraft('repair', dir);
    expect(repair.status, repair.stderr).toBe(0);
    expect(repair.stdout).toMatch(/Turn 1 was not whole: put aside as .*turns\/0001\.incomplete-1\./);
    expect(repair.stdout).toMatch(/Turn 1 is pending again/);
    expect(readdirSync(join(dir, 'turns')).filter((n) => !n.startsWith('.')).sort()).toEqual(['0000', '0001.incomplete-1']);

    expect((await fatecraft('turn', dir)).status).toBe(0);
    // The same turn, byte for byte, but that the tick above started the schedule: the reports now print
    // the deadline it set for turn 2 instead of leaving it to the GM (the manifest's digests follow).
    const scheduled = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([name]) => name !== 'manifest.yaml' && name !== RENDER_INPUTS_FILE).map(([name, text]) => [name, text.replaceAll('to be announced by the GM', 'Sun 30 Mar 2025 18:00 BST')]));
    expect(scheduled(turnFolder(dir))).toEqual(scheduled(whole));
    // The tick's turn also keeps the deadline its reports were rendered with (a turn by hand has none).
    expect(Object.keys(turnFolder(dir)).filter((name) => name !== RENDER_INPUTS_FILE).sort()).toEqual(Object.keys(whole).sort());
    expect((await fatecraft('repair', dir)).stderr).toMatch(/nothing to repair/);
  });

  it('missing a report: status says so; repair makes the reports again, byte for byte', async () => {
    const dir = demoCopy('reports');
    expect((await fatecraft('turn', dir)).status).toBe(0);
    const whole = turnFolder(dir);
    rmSync(join(dir, 'turns', '0001', 'reports', 'argenta.txt'));
    rmSync(join(dir, 'turns', '0001', 'reports', 'gm.html'));
    expect((await fatecraft('status', dir)).stdout).toMatch(/DAMAGED TURN: the reports of turn 1 are damaged \(reports\/argenta\.txt, reports\/gm\.html missing\)/);
    const repair = await fatecraft('repair', dir);
    expect(repair.status, repair.stderr).toBe(0);
    expect(repair.stdout).toMatch(/The reports of turn 1 were made again\./);
    expect(existsSync(join(dir, 'turns', '0001', 'reports', 'argenta.txt'))).toBe(true);
    expect(turnFolder(dir)).toEqual(whole);
  });

  it('a folder written before manifests existed counts as whole while its state is there', async () => {
    const dir = demoCopy('legacy');
    expect((await fatecraft('turn', dir)).status).toBe(0);
    rmSync(join(dir, 'turns', '0001', 'manifest.yaml'));
    expect((await fatecraft('status', dir)).stdout).not.toMatch(/DAMAGED/);
    rmSync(join(dir, 'turns', '0001', 'state.yaml'));
    expect((await fatecraft('status', dir)).stdout).toMatch(/DAMAGED TURN: .*turns\/0001 is incomplete \(no manifest\.yaml and no state\.yaml\)/);
  });
});
