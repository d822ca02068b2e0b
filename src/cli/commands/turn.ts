import type { Command } from 'commander';
import { runTurn } from '../../jobs/run-turn.js';
import { turnRenderers } from '../renderers.js';

export function registerTurn(program: Command): void {
  program
    .command('turn')
    .description('resolve the pending turn of a campaign and write its state, events and reports')
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .option('--expect <turn>', 'refuse unless the pending turn is this one', (v) => Number.parseInt(v, 10))
    .action(async (dir: string, opts: { expect?: number }) => {
      const result = await runTurn(dir, { renderers: turnRenderers(), ...(opts.expect !== undefined ? { expectTurn: opts.expect } : {}) });
      const count = (type: string) => result.events.filter((e) => e.type === type).length;
      console.log(`Resolved turn ${result.turn}: ${result.events.length} events, ${count('battle')} battles, ${count('order_rejected')} orders rejected.`);
      console.log(`Written to ${result.dir}`);
    });
}
