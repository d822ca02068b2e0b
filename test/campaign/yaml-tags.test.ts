import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GM_LIMITS, PLAYER_LIMITS, readBulkYaml, readYaml, STRICT_REREAD_BYTES } from '../../src/campaign/yaml-io.js';
import { runInProcess } from '../support/command-line.js';
import { cpuTimeOf } from '../support/cpu-time.js';

/** Every file the GM or players write is plain YAML: a tag (!!js/function, !custom...) is refused with its line. */
const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = join(ROOT, 'campaigns', 'silversheen');
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-tags-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const TAGGED = ['!!js/function "function () { return 1 }"', '!!python/object:os.system ls', '!!binary aGVsbG8=', '!!timestamp 2001-12-14', '!custom x'];

describe('the YAML readers refuse unknown tags', () => {
  it.each(TAGGED)('readYaml refuses %s, located', (tagged) => {
    const read = readYaml(`a: 1\nb: ${tagged}\n`, GM_LIMITS);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems[0]?.line).toBe(2);
    expect(read.problems[0]?.message).toMatch(/^unknown tag !/);
  });

  it.each(TAGGED)('readBulkYaml refuses %s in a small file', (tagged) => {
    const read = readBulkYaml(Buffer.from(`a: 1\nb: ${tagged}\n`), GM_LIMITS);
    expect(read.ok).toBe(false);
  });

  it('readBulkYaml refuses a tag in a big file without the strict reader, with its line', () => {
    const rows = Array.from({ length: Math.ceil(STRICT_REREAD_BYTES / 12) }, (_, i) => `u${i}: {hp: ${i}}`);
    rows.push('evil: !!js/function "function () { return 1 }"');
    const bytes = Buffer.from(rows.join('\n') + '\n');
    expect(bytes.byteLength).toBeGreaterThan(STRICT_REREAD_BYTES);
    const { result: read, ms } = cpuTimeOf(() => readBulkYaml(bytes, GM_LIMITS));
    expect(ms, 'CPU time: the strict reader was not run over the big file').toBeLessThan(5000);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems[0]?.line).toBe(rows.length);
    expect(read.problems[0]?.message).toMatch(/unknown tag/);
  });

  it('keeps the plain tags', () => {
    const read = readYaml('a: !!str 12\nb: !!int "3"\nc: !!seq [1]\nd: !!map {x: 1}\ne: !!null\nf: !!bool true\ng: !!float 1.5\n', PLAYER_LIMITS);
    expect(read.ok && read.value).toEqual({ a: '12', b: 3, c: [1], d: { x: 1 }, e: null, f: true, g: 1.5 });
  });
});

describe('a tag in campaign.yaml stops the commands', () => {
  it.each(['status', 'turn'])('fatecraft %s refuses !!js/function in campaign.yaml, naming the file and line', async (command) => {
    const dir = join(scratch, `campaign-${command}`);
    cpSync(DEMO, dir, { recursive: true });
    const path = join(dir, 'campaign.yaml');
    const text = readFileSync(path, 'utf8');
    const line = text.split('\n').findIndex((l) => l.startsWith('title:')) + 1;
    writeFileSync(path, text.replace(/^title: .*$/m, 'title: !!js/function "function () { return 1 }"'));
    const run = await runInProcess([command, dir]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`${path}: line ${line}: unknown tag !!js/function`);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stdout).not.toContain('function () { return 1 }');
  });
});
