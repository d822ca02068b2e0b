import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, demoCopy, scratchDir } from '../schedule/support.js';

/**
 * Tokens are never printed or logged (issue 33: `nation split` printed the new one): they go to the secrets
 * file and, by mail, to their player. Every command that issues or replaces one is run here, with mail and
 * without, with an address and without, and no token appears in what it prints nor in runtime.yaml.
 */
afterAll(cleanupScratch);

const NOW = '2025-03-20T10:00:00Z';

function game(label: string, mail: boolean) {
  const root = scratchDir(label);
  const g = { dir: demoCopy(label, undefined, { keepMail: mail }), secrets: join(root, 'silversheen.secrets.yaml'), printed: [] as string[] };
  // In this process: every line a command prints (console and commander's output) is captured, as a process's would be.
  const fc = async (args: string[]) => {
    const r = await runInProcess(args, { env: { FATECRAFT_NOW: NOW, FATECRAFT_SECRETS: g.secrets, FATECRAFT_LOCK_WAIT: '0' } });
    g.printed.push(`$ fatecraft ${args.join(' ')}\n${r.stdout}${r.stderr}`);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  return { ...g, fc };
}

const tokensOf = (file: string) => Object.values(load(readFileSync(file, 'utf8')) as Record<string, string>).filter((v) => /^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/.test(v));

for (const mail of [true, false]) {
  describe(`tokens ${mail ? 'with' : 'without'} mail`, () => {
    it('are printed by no command that issues or replaces one, nor written to runtime.yaml', async () => {
      const g = game(`unprinted-${mail}`, mail);
      await g.fc(['start', g.dir]);
      const sheet = join(g.dir, '..', 'skarn.yaml');
      writeFileSync(sheet, 'name: Skarn Reavers\nleader: Skarn the Grey\ncaps: { military: 4, diplomatic: 1 }\nstart: { renown: 20, fate: 2, prosperity: 0, happiness: 0 }\nunitTypes: { raider: { name: Reaver Band, class: infantry, speed: 2 } }\nsettlements: [{ id: skarnhold, name: Skarnhold, level: village, hex: "2,18" }]\nunits: [{ id: skarn-1, type: raider, name: First Band, hex: "2,18" }]\n');
      await g.fc(['nation', 'add', g.dir, 'skarn', '--sheet', sheet, '--email', 'skarn@game.test']);
      await g.fc(['nation', 'reassign', g.dir, 'westvalia', '--email', 'new.thane@game.test']);
      const open = await openCampaign(g.dir);
      const state = await readState(g.dir, 0, open.campaign);
      const town = Object.values(state.settlements).find((s) => s.nation === asNationId('vulcanstille') && s.level !== 'capital')!;
      await g.fc(['nation', 'split', g.dir, 'vulcanstille', 'ashfree', '--name', 'The Free Cities of Ash', '--leader', 'Warden Oska', '--settlements', town.id, '--email', 'oska@ash.test']);
      await g.fc(['token', g.dir, 'argenta', '--new']);
      // A nation without an address: its new token cannot be mailed, and is still not printed.
      await g.fc(['nation', 'split', g.dir, 'argenta', 'argent-free', '--name', 'The Free March', '--leader', 'Captain Ilse', '--units', Object.values(state.units).find((u) => u.nation === asNationId('argenta'))!.id]);
      await g.fc(['tick', g.dir]);

      const tokens = tokensOf(g.secrets);
      // The demo's five played nations, skarn and ashfree; not the rebels (no orders, no token) nor argent-free (no address).
      expect(tokens.length).toBeGreaterThanOrEqual(7);
      const printed = g.printed.join('\n');
      expect(printed).toContain(g.secrets);
      for (const t of tokens) {
        expect(printed, 'printed').not.toContain(t);
        expect(readFileSync(join(g.dir, 'runtime.yaml'), 'utf8'), 'runtime.yaml').not.toContain(t);
      }
    });
  });
}
