import type { Command } from 'commander';
import { generateCampaign } from '../../generate/synthetic.js';
import { writeSyntheticCampaign } from '../../generate/write.js';

const positive = (name: string) => (v: string) => {
  const n = Number.parseInt(v, 10);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, not "${v}"`);
  return n;
};

export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('write a synthetic campaign with plausible turn-1 orders (benchmarks, load tests)')
    .argument('<dir>', 'folder to write (replaced if it exists)')
    .option('--nations <n>', 'number of nations', positive('--nations'), 10)
    .option('--units-per-nation <n>', 'units per nation', positive('--units-per-nation'), 100)
    .option('--map <WxH>', 'map size, e.g. 400x400 (default: grows with the nations)')
    .option('--seed <seed>', 'random seed', 'bench')
    .action(async (dir: string, opts: { nations: number; unitsPerNation: number; map?: string; seed: string }) => {
      const side = Math.max(24, Math.ceil(Math.sqrt(opts.nations) * 13));
      const [w, h] = opts.map ? opts.map.split('x').map(Number) : [side, side];
      if (!w || !h || !Number.isInteger(w) || !Number.isInteger(h)) throw new Error(`--map must look like 400x400, not "${opts.map}"`);
      const generated = generateCampaign({ nations: opts.nations, unitsPerNation: opts.unitsPerNation, width: w, height: h, seed: opts.seed });
      await writeSyntheticCampaign(dir, generated);
      console.log(`Wrote ${opts.nations} nations, ${Object.keys(generated.state.units).length} units on a ${w}x${h} map to ${dir}`);
    });
}
