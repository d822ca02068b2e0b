import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditTurn } from '../../src/core/audit.js';
import { openCampaign, readState, stateYaml, writeTurn } from '../../src/campaign/store.js';
import { STRICT_REREAD_BYTES } from '../../src/campaign/yaml-io.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { runBuilt } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';

/** The campaign on disk: whole turns, byte-stable, never overwritten, errors located. */
const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = join(ROOT, 'campaigns', 'silversheen');
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-turns-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function copyDemo(name: string): string {
  const dir = join(scratch, name);
  cpSync(DEMO, dir, { recursive: true });
  return dir;
}

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('fatecraft turn on the demo campaign', () => {
  it('writes byte-identical turns from two copies of the same campaign', async () => {
    // One by a process of the built CLI, one in this process, which has run other tests before.
    const a = copyDemo('a');
    const b = copyDemo('b');
    expect(runBuilt(['turn', a]).status).toBe(0);
    expect((await runInProcess(['turn', b])).status).toBe(0);
    const ta = tree(join(a, 'turns', '0001'));
    const tb = tree(join(b, 'turns', '0001'));
    expect(Object.keys(ta)).toContain('state.yaml');
    expect(Object.keys(ta)).toContain('events.yaml');
    expect(Object.keys(ta).some((k) => k.startsWith('orders/'))).toBe(true);
    expect(tb).toEqual(ta);
  });

  it('explains every change of the turn with an event', async () => {
    const dir = copyDemo('audit');
    const open = await openCampaign(dir);
    const before = await readState(dir, 0, open.campaign);
    const result = await runTurn(dir);
    expect(auditTurn(before, result.state, result.events)).toEqual([]);
    expect(result.events.filter((e) => e.type === 'battle').length).toBeGreaterThan(0);
  });

  it('refuses to resolve a turn twice or the wrong turn', async () => {
    const dir = copyDemo('twice');
    await runTurn(dir, { expectTurn: 1 });
    await expect(runTurn(dir, { expectTurn: 1 })).rejects.toThrow(/turn 1 has already been resolved \(the pending turn is 2\)/);
    const open = await openCampaign(dir);
    const state = await readState(dir, 1, open.campaign);
    await expect(writeTurn(dir, 1, { state, events: [], extra: {} })).rejects.toThrow(/already resolved/);
  });

  it('ignores and clears a half-written turn left by a crash', async () => {
    const dir = copyDemo('crash');
    const partial = join(dir, 'turns', '.0001.partial-99999');
    mkdirSync(partial, { recursive: true });
    writeFileSync(join(partial, 'state.yaml'), 'half a file');
    const result = await runTurn(dir);
    expect(result.turn).toBe(1);
    expect(existsSync(partial)).toBe(false);
  });
});

describe("a turn's own files beside its reports", () => {
  async function resolvedDemo(name: string) {
    const dir = copyDemo(name);
    await runTurn(dir);
    const open = await openCampaign(dir);
    return { dir, state: await readState(dir, 1, open.campaign) };
  }
  const stateOf = (dir: string) => readFileSync(join(dir, 'turns', '0002', 'state.yaml'), 'utf8');

  it('are written once when a renderer writes them alongside its own work, and before the turn is in place', async () => {
    const { dir, state } = await resolvedDemo('alongside');
    const seen: string[] = [];
    await writeTurn(dir, 2, { state, events: [], extra: { 'orders/x.yaml': 'nation: x\n' } }, async (sink, alongside) => {
      await sink.write('reports/early.txt', 'made before the state was written');
      await alongside();
      seen.push(...readdirSync(join(sink.dir)).sort());
      // A second call (another renderer) finds them written and writes nothing again.
      await alongside();
    });
    expect(seen).toEqual(['events.yaml', 'orders', 'reports', 'state.yaml']);
    expect(stateOf(dir)).toBe(stateYaml(state));
    expect(readFileSync(join(dir, 'turns', '0002', 'reports', 'early.txt'), 'utf8')).toMatch(/made before/);
  });

  it('are still written when no renderer asks for them', async () => {
    const { dir, state } = await resolvedDemo('not-alongside');
    await writeTurn(dir, 2, { state, events: [], extra: {} }, async (sink) => sink.write('reports/only.txt', 'x'));
    expect(stateOf(dir)).toBe(stateYaml(state));
    expect(existsSync(join(dir, 'turns', '0002', 'events.yaml'))).toBe(true);
  });

  it('leave nothing behind when the reports fail after them', async () => {
    const { dir, state } = await resolvedDemo('alongside-fails');
    const fill = async (_sink: unknown, alongside: () => Promise<void>) => {
      await alongside();
      throw new Error('a report failed');
    };
    await expect(writeTurn(dir, 2, { state, events: [], extra: {} }, fill)).rejects.toThrow(/a report failed/);
    expect(readdirSync(join(dir, 'turns')).sort()).toEqual(['0000', '0001']);
  });
});

describe('bad campaign files', () => {
  const run = (dir: string) => runInProcess(['turn', dir]);

  it('names the file, the line and the key for a schema problem, without a stack trace', async () => {
    const dir = copyDemo('bad-schema');
    const path = join(dir, 'campaign.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^seed:/m, 'sede:'));
    const out = await run(dir);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/campaign\.yaml: line \d+: .*sede/);
    expect(out.stderr).not.toMatch(/\n\s+at /);
  });

  it('locates a problem in a hand-edited state file', async () => {
    const dir = copyDemo('bad-state');
    const path = join(dir, 'turns', '0000', 'state.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/health: healthy/, 'health: groggy'));
    const out = await run(dir);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/state\.yaml: line \d+: units\.[a-z0-9-]+\.health: /);
  });

  it('reports broken YAML with its line', async () => {
    const dir = copyDemo('bad-yaml');
    writeFileSync(join(dir, 'campaign.yaml'), 'name: x\ntitle: [unclosed\n');
    const out = await run(dir);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/campaign\.yaml: line \d+/);
  });

  it('reports broken YAML in a big state file with its line, from the fast reader alone', async () => {
    const dir = copyDemo('bad-big-state');
    await runTurn(dir);
    // A hand edit with an unclosed "[" near the top of a state of several megabytes: the strict
    // reader would take minutes on it, so the fast reader's located message is the answer.
    const path = join(dir, 'turns', '0001', 'state.yaml');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[3] = '  oops: [unclosed';
    const padding = Array.from({ length: 40_000 }, (_, i) => `# filler line ${i} to make the file big`).join('\n');
    writeFileSync(path, `${lines.join('\n')}\n${padding}\n`);
    expect(readFileSync(path).byteLength).toBeGreaterThan(STRICT_REREAD_BYTES);
    const out = await run(dir);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/state\.yaml: line [56]: .*\(noticed at column \d+; the cause may be just above\)/);
    expect(out.stderr).not.toMatch(/at .*\.[jt]s:\d+/);
  });

  it('says so when the folder is not a campaign, in words', async () => {
    const nowhere = await run(join(scratch, 'nowhere'));
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toMatch(/nowhere: there is no such folder: give the campaign's folder/);
    const empty = join(scratch, 'not-a-campaign');
    mkdirSync(empty, { recursive: true });
    const out = await run(empty);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/not-a-campaign: there is no campaign\.yaml here: is this a campaign folder\?/);
    expect(out.stderr + nowhere.stderr).not.toMatch(/ENOENT|ENOTDIR/);
    expect(readdirSync(empty)).toEqual([]);
  });
});

describe('hand-edited sieges', () => {
  it('says so when a besieging unit does not stand at the settlement it besieges', async () => {
    const dir = copyDemo('bad-siege');
    const path = join(dir, 'turns', '0000', 'state.yaml');
    const text = readFileSync(path, 'utf8');
    const unit = /^ {2}(ar-argentum-guard):\n((?: {4}.*\n)+)/m.exec(text);
    expect(unit).not.toBeNull();
    writeFileSync(path, text.replace(unit![0], `  ${unit![1]}:\n${unit![2]}    besieging: cinderford\n`));
    const out = await runInProcess(['turn', dir]);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/state\.yaml: .*units\.ar-argentum-guard\.hex: ar-argentum-guard besieges cinderford, so it stands at \d+,\d+, not \d+,\d+/);
  });
});
