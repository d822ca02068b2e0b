import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { readTokens } from '../../src/campaign/secrets.js';
import { loadSecrets } from '../../src/mailroom/secrets.js';
import { CLI } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, scratchDir } from '../schedule/support.js';

/**
 * Secrets at rest (issue 33): a secrets file others may read is refused, as ssh refuses such a key, with the
 * chmod that fixes it; and `start` never leaves one wider than 0600, whatever the umask.
 */
afterAll(cleanupScratch);

const MONDAY = '2026-03-02T12:00:00Z';

function game(label: string): { root: string; dir: string; secrets: string } {
  const root = scratchDir(label);
  return { root, dir: join(root, 'iron-coast'), secrets: join(root, 'private', 'iron-coast.secrets.yaml') };
}

/** The CLI under a shell with the given umask (so the files it makes would be wide open without care). */
function fc(g: { root: string; secrets: string }, args: string[], umask = '022') {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawnSync('sh', ['-c', `umask ${umask}; exec ${quoted}`], { cwd: g.root, encoding: 'utf8', env: { ...process.env, FATECRAFT_NOW: MONDAY, FATECRAFT_SECRETS: g.secrets, FATECRAFT_LOCK_WAIT: '0' } });
}

/** The same command in this process, for what does not depend on the umask. */
const inProcess = (g: { root: string; secrets: string }, args: string[]) => runInProcess(args, { cwd: g.root, env: { FATECRAFT_NOW: MONDAY, FATECRAFT_SECRETS: g.secrets, FATECRAFT_LOCK_WAIT: '0' } });

const mode = (file: string) => statSync(file).mode & 0o777;

describe('a secrets file others may read', () => {
  it('is refused by every reader, with the chmod that fixes it', async () => {
    const root = scratchDir('secrets-0644');
    const file = join(root, 'hand-written.secrets.yaml');
    writeFileSync(file, 'argenta: k3x9-tr7q\nFATECRAFT_IMAP_PASSWORD: hunter2\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const env = { FATECRAFT_SECRETS: file };
    const refusal = await readTokens('demo', env).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(CampaignError);
    expect((refusal as Error).message).toContain('mode 0644');
    expect((refusal as Error).message).toContain(`chmod 600 ${file}`);
    expect(() => loadSecrets({ campaign: 'demo', campaignDir: join(root, 'campaign'), env })).toThrow(`chmod 600 ${file}`);
    for (const m of [0o640, 0o604, 0o660]) {
      chmodSync(file, m);
      expect(() => loadSecrets({ campaign: 'demo', campaignDir: join(root, 'campaign'), env }), m.toString(8)).toThrow('chmod 600');
    }
    chmodSync(file, 0o600);
    expect(loadSecrets({ campaign: 'demo', campaignDir: join(root, 'campaign'), env }).token('argenta')).toBe('k3x9-tr7q');
    expect(await readTokens('demo', env)).toEqual({ argenta: 'k3x9-tr7q' });
  });

  it('stops `start`, which issues no token into it, and names the fix', async () => {
    const g = game('start-0644');
    expect((await inProcess(g, ['new', 'iron-coast'])).status).toBe(0);
    mkdirSync(join(g.root, 'private'));
    writeFileSync(g.secrets, '# mine\nFATECRAFT_IMAP_PASSWORD: hunter2\n', { mode: 0o644 });
    chmodSync(g.secrets, 0o644);
    const r = await inProcess(g, ['start', g.dir]);
    expect(r.status, r.stdout).toBe(1);
    expect(r.stderr).toContain(`chmod 600 ${g.secrets}`);
    expect(readFileSync(g.secrets, 'utf8')).toBe('# mine\nFATECRAFT_IMAP_PASSWORD: hunter2\n');
    chmodSync(g.secrets, 0o600);
    expect((await inProcess(g, ['start', g.dir])).status).toBe(0);
    expect(mode(g.secrets)).toBe(0o600);
  });

  it('is never what `start` leaves, even under umask 000', () => {
    const g = game('start-umask');
    expect(fc(g, ['new', 'iron-coast'], '000').status).toBe(0);
    const r = fc(g, ['start', g.dir], '000');
    expect(r.status, r.stderr).toBe(0);
    expect(mode(g.secrets)).toBe(0o600);
    expect(mode(join(g.root, 'private'))).toBe(0o700);
  });
});
