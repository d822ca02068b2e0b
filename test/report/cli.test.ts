import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { registerCommands } from '../../src/cli/commands/index.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { FIXTURE, readReports, scratchCopy } from './support.js';
import { setReportSettings } from '../support/campaign-file.js';

/** `fatecraft turn` writes the reports with the turn; `fatecraft report` re-renders them in place. */
const copies: (() => void)[] = [];
afterAll(() => copies.forEach((c) => c()));

async function cli(...args: string[]): Promise<void> {
  const program = new Command().exitOverride();
  await registerCommands(program);
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await program.parseAsync(['node', 'fatecraft', ...args]);
  } finally {
    log.mockRestore();
  }
}

function copy(label: string): string {
  const { dir, cleanup } = scratchCopy(FIXTURE, label);
  copies.push(cleanup);
  return dir;
}

describe('fatecraft turn', () => {
  it('writes every nation\'s reports and the GM\'s into the new turn folder', async () => {
    const dir = copy('cli-turn');
    await cli('turn', dir);
    const reports = readReports(dir, 1);
    expect(Object.keys(reports)).toEqual([
      'argenta-orders.yaml', 'argenta.html', 'argenta.txt', 'argenta.yaml',
      'borea-orders.yaml', 'borea.html', 'borea.txt', 'borea.yaml',
      'corsa-orders.yaml', 'corsa.html', 'corsa.txt', 'corsa.yaml',
      'gm.html', 'nations.txt',
    ]);
    // One map each, inside its page: no .svg file repeats it (unless the campaign asks, below).
    for (const page of ['argenta.html', 'borea.html', 'corsa.html', 'gm.html']) expect(reports[page]!.match(/<svg /g)?.length, page).toBe(1);
  });

  it('writes the maps apart as well when reports.formats asks for svg', async () => {
    const dir = copy('cli-turn-svg');
    setReportSettings(dir, { formats: ['txt', 'html', 'svg'] });
    await cli('turn', dir);
    const reports = readReports(dir, 1);
    expect(Object.keys(reports).filter((n) => n.endsWith('.svg'))).toEqual(['argenta.svg', 'borea.svg', 'corsa.svg', 'gm.svg']);
    expect(reports['argenta.html']).toContain(reports['argenta.svg']!.trim().slice(0, 200));
  });
});

describe('fatecraft report', () => {
  it('renders the reports of a turn resolved without them, the latest by default', async () => {
    const dir = copy('cli-report');
    await runTurn(dir);
    expect(readReports(dir, 1)).toEqual({});
    await cli('report', dir);
    const reports = readReports(dir, 1);
    expect(Object.keys(reports)).toHaveLength(14);
    expect(reports['argenta.txt']).toContain('report for Argenta');
  });

  it('with --nation and --deadline rewrites only that nation\'s files, atomically', async () => {
    const dir = copy('cli-nation');
    await runTurn(dir);
    await cli('report', dir, '--turn', '1');
    const gmBefore = statSync(join(dir, 'turns', '0001', 'reports', 'gm.html')).mtimeMs;
    const before = readReports(dir, 1);
    await cli('report', dir, '--turn', '1', '--nation', 'borea', '--deadline', 'the first full moon');
    const after = readReports(dir, 1);
    expect(after['borea.txt']).toContain('deadline: the first full moon');
    expect(after['argenta.txt']).toBe(before['argenta.txt']);
    expect(statSync(join(dir, 'turns', '0001', 'reports', 'gm.html')).mtimeMs).toBe(gmBefore);
    expect(readdirSync(join(dir, 'turns', '0001', 'reports')).filter((n) => !/^(argenta|borea|corsa)(-orders)?\.(txt|html|yaml|svg)$|^gm\.(html|svg)$|^nations\.txt$/.test(n))).toEqual([]);
    expect(readFileSync(join(dir, 'turns', '0001', 'state.yaml'), 'utf8')).toContain('turn: 1');
  });

  it('clears what a killed run left staged and leaves nothing of its own beside the reports', async () => {
    const dir = copy('cli-staged');
    await runTurn(dir);
    const stale = join(dir, 'turns', '0001', '.reports.partial-99999', 'reports');
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, 'argenta.txt'), 'half a report');
    await cli('report', dir);
    expect(readdirSync(join(dir, 'turns', '0001')).sort()).toEqual(['events.yaml', 'manifest.yaml', 'orders', 'reports', 'state.yaml']);
    expect(readReports(dir, 1)['argenta.txt']).toContain('report for Argenta');
  });

  it('refuses an unknown nation or an unresolved turn with a clear message', async () => {
    const dir = copy('cli-errors');
    await expect(cli('report', dir)).rejects.toThrow(/no resolved turns yet/);
    await runTurn(dir);
    await expect(cli('report', dir, '--nation', 'atlantis')).rejects.toThrow(CampaignError);
    await expect(cli('report', dir, '--nation', 'atlantis')).rejects.toThrow(/no nation "atlantis"/);
    await expect(cli('report', dir, '--turn', '7')).rejects.toThrow(/turn 7 is not resolved/);
  });

  it('reports on the starting position (turn 0)', async () => {
    const dir = copy('cli-turn0');
    await runTurn(dir);
    await cli('report', dir, '--turn', '0');
    const txt = readReports(dir, 0)['argenta.txt'] ?? '';
    expect(txt).toContain('Turn 0: the starting position');
    expect(txt).toContain('Next orders: turn 1 (Summer of 412)');
  });
});

describe('the GM report of a big world', () => {
  it('draws the world a cell per hex inside the page, and writes no second copy', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'fatecraft-bigmap-')), 'campaign');
    copies.push(() => rmSync(join(dir, '..'), { recursive: true, force: true }));
    await cli('generate', dir, '--nations', '2', '--units-per-nation', '3', '--map', '50x50', '--seed', 'bigmap');
    await cli('turn', dir);
    const reports = readReports(dir, 1);
    const html = reports['gm.html'] ?? '';
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="fatecraft-map world"');
    // No hex drawn one by one: terrain in column runs, one path per terrain.
    expect(html).not.toContain('<use href=');
    expect(html).toMatch(/<path class="t-[a-z-]+" fill="#[0-9a-f]{6}" d="M0 0h1v\d+h-1z/);
    // Both nations' settlements and units are there, in their colours.
    const settlements = html.slice(html.indexOf('<g class="settlements"'), html.indexOf('</g>', html.indexOf('<g class="settlements"')));
    expect(settlements.match(/<path fill="#[0-9a-f]{6}"/g)).toHaveLength(2);
    expect(reports['gm.svg']).toBeUndefined();
    // A nation's map is cut to what it knows, so it is still drawn hex by hex.
    expect(reports['n0000.html']).toContain('<use href=');
  });
});

describe('reports.formats in campaign.yaml', () => {
  it('makes only the files asked for, the text report always', async () => {
    const dir = copy('cli-formats');
    setReportSettings(dir, { formats: ['txt', 'orders'] });
    await cli('turn', dir);
    expect(Object.keys(readReports(dir, 1))).toEqual([
      'argenta-orders.yaml', 'argenta.txt', 'borea-orders.yaml', 'borea.txt', 'corsa-orders.yaml', 'corsa.txt',
      'gm.html', 'nations.txt',
    ]);
  });

  it('refuses a list without the text report, and writes no turn', async () => {
    const dir = copy('cli-formats-bad');
    setReportSettings(dir, { formats: ['html'] });
    await expect(cli('turn', dir)).rejects.toThrow(/reports\.formats: the text report \(txt\) is always made/);
    expect(readdirSync(join(dir, 'turns'))).toEqual(['0000']);
  });
});

describe('report templates and settings are checked before the turn is resolved', () => {
  it('refuses a template that does not parse, with its file and line, and resolves nothing', async () => {
    const dir = copy('cli-template-syntax');
    mkdirSync(join(dir, 'templates'), { recursive: true });
    writeFileSync(join(dir, 'templates', 'nation.txt.hbs'), 'Report for {{nation.name}}\n{{#if nation.alive}}\nstill standing\n');
    await expect(cli('turn', dir)).rejects.toThrow(/templates\/nation\.txt\.hbs: line 4: the template does not parse: Expecting .*got 'EOF'/);
    expect(readdirSync(join(dir, 'turns'))).toEqual(['0000']);
  });
});
