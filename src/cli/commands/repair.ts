import type { Command } from 'commander';
import { repairTurns } from '../../gm/repair.js';
import { handRun } from '../command-lock.js';

export function registerRepair(program: Command): void {
  program
    .command('repair')
    .description('put aside a turn folder that was not written whole (it is resolved again), or make damaged reports again; nothing is deleted')
    .argument('<campaign>', 'campaign folder')
    .action(async (dir: string) => {
      const r = await repairTurns(dir, handRun());
      for (const t of r.packsFinished ?? []) console.log(`The packing of turn ${t}'s reports had been cut short: finished (turns/${String(t).padStart(4, '0')}/reports.tar.gz).`);
      for (const p of r.putAside) console.log(`Turn ${p.turn} was not whole: put aside as ${p.to}.`);
      if (r.reportsRewritten !== undefined) console.log(`The reports of turn ${r.reportsRewritten} were made again.`);
      if (r.putAside.length) console.log(`Turn ${r.pending} is pending again: the next tick past its deadline resolves it, or now: fatecraft turn ${dir}`);
    });
}
