// Scratch (not committed): replays the case named by CASE and prints its warfare accounts and chosen events.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { parse } from 'yaml';
import { ForcedRandomiser, SeededRandomiser } from '../../src/core/dice.js';
import type { NationId } from '../../src/core/ids.js';
import { resolveTurn } from '../../src/core/turn.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { buildState, loadWorld } from '../support/case-world.js';

it('scratch', () => {
  const file = process.env.CASE!;
  const spec = parse(readFileSync(file, 'utf8'));
  const campaign = loadWorld(join('test/cases', spec.world ?? '_world.yaml'), spec.rules);
  let state = buildState(campaign, spec.state);
  for (const turn of spec.turns ?? [spec]) {
    const orders: any = { nations: {}, gm: turn.gm ?? [] };
    for (const [nation, given] of Object.entries(turn.orders ?? {})) {
      const list = Array.isArray(given) ? given : (given as any).orders;
      const sheet = { turn: state.turn + 1, entries: list.map((f: any, i: number) => ({ line: i + 1, text: JSON.stringify(f), fields: f })), problems: [] };
      orders.nations[nation as NationId] = interpretSheet(sheet as any, nation as NationId, campaign, state).orders;
    }
    const fallback = turn.seeded ? new SeededRandomiser(campaign.seed, state.turn + 1) : undefined;
    const r = resolveTurn({ campaign, state, orders, dice: new ForcedRandomiser(turn.dice ?? {}, fallback) });
    const show = (process.env.SHOW ?? 'warfare').split(',');
    for (const e of r.events) {
      if (e.type === 'warfare' && show.includes('warfare')) { const { draws, ...rest } = e as any; console.log(JSON.stringify({ ...rest, account: undefined }, null, 1)); console.log((e as any).account.map((l: string) => `        - "${l.replace(/"/g, '\\"')}"`).join('\n')); }
      else if (show.includes(e.type) || show.includes('all')) console.log(JSON.stringify(e));
    }
    state = r.state;
    if (process.env.STATE) console.log(JSON.stringify({ nations: state.nations, aspects: state.aspects }, null, 1));
  }
});
