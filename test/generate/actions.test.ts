import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCampaign } from '../../src/generate/synthetic.js';
import { writeSyntheticCampaign } from '../../src/generate/write.js';
import { runTurn } from '../../src/jobs/run-turn.js';

/** `fatecraft generate --actions`: a synthetic campaign whose workers spy, preach and trade, for issue 22's benchmark. */
const root = mkdtempSync(join(tmpdir(), 'fc-generate-actions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const options = { nations: 16, unitsPerNation: 30, width: 52, height: 52, seed: 'actions' };
type Order = Record<string, unknown>;
const ordersOf = (g: ReturnType<typeof generateCampaign>) => Object.values(g.orders).flatMap((sheet) => sheet.orders as Order[]);

describe('a generated campaign with diplomatic actions', () => {
  it('gives every worker an action, in the same world with every other unit where it was', () => {
    const plain = generateCampaign(options);
    const busy = generateCampaign({ ...options, actions: true });
    const acts = ordersOf(busy).filter((o) => 'act' in o);
    expect(acts).toHaveLength(options.nations * 2);
    expect(new Set(acts.map((o) => o.action))).toEqual(new Set(['espionage', 'preach', 'trade']));
    expect(busy.state.settlements).toEqual(plain.state.settlements);
    const others = (g: ReturnType<typeof generateCampaign>) => Object.values(g.state.units).filter((u) => !/-u[01]$/.test(u.id));
    expect(others(busy)).toEqual(others(plain));
    // The workers stand elsewhere, and the armies' plans see them there.
    expect(plain.state.units).not.toEqual(busy.state.units);
    expect(ordersOf(plain).filter((o) => 'act' in o)).toEqual([]);
  });

  it('resolves its actions in the turn: routes open, sermons and spies roll', async () => {
    const dir = join(root, 'busy');
    await writeSyntheticCampaign(dir, generateCampaign({ ...options, actions: true }));
    await runTurn(dir, { renderers: [] });
    const log = readFileSync(join(dir, 'turns', '0001', 'events.yaml'), 'utf8');
    const taken = [...log.matchAll(/type: action_taken[\s\S]*?action: ([a-z]+)/g)].map((m) => m[1]);
    expect(new Set(taken)).toEqual(new Set(['espionage', 'preach', 'trade']));
    expect(log).toMatch(/type: trade_route_opened/);
    // No worker's order is refused: each stands where its action reaches.
    expect(log.split(/\n  - /).filter((e) => /type: order_rejected/.test(e) && /order: 'act: /.test(e))).toEqual([]);
  });
});
