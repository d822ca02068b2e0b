import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cleanupScratch, demoCopy, ensureBuilt, scratchDir } from '../schedule/support.js';

/**
 * A write killed half-way leaves its temporary file (issue 33: `argenta.eml.<n>` beside the filed orders);
 * the next command that owns the campaign removes them, as it does the turn's temporary folders. The files are
 * made here under the names write-file-atomic gives them, in each place the campaign's writers write.
 */
beforeAll(ensureBuilt, 120_000);
afterAll(cleanupScratch);

const tmpName = (createRequire(import.meta.url)('write-file-atomic') as { _getTmpname: (file: string) => string })._getTmpname;

describe('temporary files of a killed write', () => {
  it('are removed by the next command that takes the campaign, and nothing else is', () => {
    const dir = demoCopy('dead-writes', undefined, { keepMail: true });
    mkdirSync(join(dir, 'mail', 'ledger'), { recursive: true });
    mkdirSync(join(dir, 'mail', 'outbox-queue', 'sent'), { recursive: true });
    const leftovers = [
      tmpName(join(dir, 'orders', '0001', 'argenta.eml')),
      tmpName(join(dir, 'orders', '0001', 'argenta.yaml')),
      tmpName(join(dir, 'runtime.yaml')),
      tmpName(join(dir, 'mail', 'ledger', '0123456789abcdef.yaml')),
      tmpName(join(dir, 'mail', 'outbox-queue', 'sent', 'x.yaml')),
      tmpName(join(dir, 'mail', 'senders.yaml')),
      // A GM operation's staged file, with no journal to apply it.
      join(dir, 'campaign.yaml.gm-new'),
      join(dir, 'turns', '0000', 'state.yaml.gm-new'),
    ];
    for (const f of leftovers) writeFileSync(f, 'half');
    // What looks alike but is not a leftover stays.
    const kept = [join(dir, 'orders', '0001', 'notes.2.eml'), join(dir, 'mail', 'inbox', 'orders.2.eml')];
    for (const f of kept) writeFileSync(f, 'kept');
    const before = readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8');

    const r = spawnSync(process.execPath, [CLI, 'pause', dir], { env: { ...process.env, FATECRAFT_NOW: '2025-03-20T10:00:00Z', FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml') }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    for (const f of leftovers) expect(existsSync(f), f).toBe(false);
    for (const f of kept) expect(existsSync(f), f).toBe(true);
    expect(readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8')).toBe(before);
  }, 60_000);
});
