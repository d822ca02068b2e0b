import { plural } from '../../core/prose.js';
import type { Command } from 'commander';
import { CampaignError } from '../../campaign/problems.js';
import { wholeNumber } from '../args.js';
import { generateCampaign, silenced } from '../../generate/synthetic.js';
import { writeSyntheticCampaign } from '../../generate/write.js';


export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('write a synthetic campaign with plausible turn-1 orders (benchmarks, load tests)')
    .argument('<dir>', 'folder to write (replaced if it exists)')
    .option('--nations <n>', 'number of nations', wholeNumber('--nations', 1), 10)
    .option('--units-per-nation <n>', 'units per nation', wholeNumber('--units-per-nation', 1), 100)
    .option('--map <WxH>', 'map size, e.g. 400x400 (default: grows with the nations)')
    .option('--seed <seed>', 'random seed', 'bench')
    .option('--events', 'write a generic event catalogue (events.yaml) beside it, so turns draw random events')
    .option('--actions', "put each nation's two workers to diplomatic work: espionage on the next nation, preaching or a trade route")
    .option('--silent', 'no orders: every player silent for long enough that the caretaker plays every nation (seats.policy: caretaker)')
    .action(async (dir: string, opts: { nations: number; unitsPerNation: number; map?: string; seed: string; events?: boolean; actions?: boolean; silent?: boolean }) => {
      const side = Math.max(24, Math.ceil(Math.sqrt(opts.nations) * 13));
      const [w, h] = opts.map ? opts.map.split('x').map(Number) : [side, side];
      if (!w || !h || !Number.isInteger(w) || !Number.isInteger(h)) throw new CampaignError([{ file: '--map', message: `a map size looks like 400x400, not "${opts.map}"` }]);
      const generated = generateCampaign({ nations: opts.nations, unitsPerNation: opts.unitsPerNation, width: w, height: h, seed: opts.seed, ...(opts.actions ? { actions: true } : {}) });
      await writeSyntheticCampaign(dir, opts.silent ? silenced(generated) : generated, { events: opts.events === true });
      console.log(`Wrote ${plural(opts.nations, 'nation')}, ${Object.keys(generated.state.units).length} units on a ${w}x${h} map to ${dir}${opts.events ? ', with a generic events.yaml' : ''}${opts.actions ? ', its workers spying, preaching and trading' : ''}${opts.silent ? ', every player silent (the caretaker plays them all)' : ''}`);
    });
}
