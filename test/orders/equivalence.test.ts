import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NationId } from '../../src/core/ids.js';
import type { NationOrders } from '../../src/core/orders.js';
import { resolveTurn } from '../../src/core/turn.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { buildReceipt } from '../../src/orders/receipt.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ordersToYaml } from '../../src/orders/yaml-write.js';
import { ARGENTA, FIXTURES, GONDARAHL, loadWorld, WORLD_DIR, type World } from './world.js';

/**
 * The same season written twice — as YAML order files and as hand-written
 * mail bodies — must give the same typed orders and the same resolved turn.
 */
const DIR = join(FIXTURES, 'equivalence');
const NATIONS = [ARGENTA, GONDARAHL];

let world: World;
const fromYaml = new Map<NationId, NationOrders>();
const fromText = new Map<NationId, NationOrders>();
const temps: string[] = [];

beforeAll(async () => {
  world = await loadWorld();
  for (const nation of NATIONS) {
    const yaml = readYamlSheet(await readFile(join(DIR, `${nation}.yaml`)));
    const text = readTextSheet(await readFile(join(DIR, `${nation}.txt`)));
    fromYaml.set(nation, interpretSheet(yaml, nation, world.open.campaign, world.state).orders);
    fromText.set(nation, interpretSheet(text, nation, world.open.campaign, world.state).orders);
  }
});

afterAll(async () => {
  for (const t of temps) await rm(t, { recursive: true, force: true });
});

/** Everything but where the orders stood and how they were spelt, which differ between the two files by design. */
const meaning = ({ lines: _lines, texts: _texts, ...rest }: NationOrders) => rest;

const turnOrders = (from: Map<NationId, NationOrders>) => ({ nations: Object.fromEntries(from) as Record<NationId, NationOrders>, gm: [] });

async function worldCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fatecraft-orders-'));
  temps.push(dir);
  await cp(WORLD_DIR, dir, { recursive: true });
  return dir;
}

async function fileOrders(dir: string, files: Record<string, string | Buffer>): Promise<void> {
  const orders = join(dir, 'orders', '0004');
  await mkdir(orders, { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(orders, name), content);
}

describe('YAML files and text mails', () => {
  it.each(NATIONS)('give identical typed orders for %s, every order read', (nation) => {
    const yaml = fromYaml.get(nation) as NationOrders;
    const text = fromText.get(nation) as NationOrders;
    expect(yaml.refused).toBeUndefined();
    expect(text.refused).toBeUndefined();
    expect(meaning(text)).toEqual(meaning(yaml));
    expect(yaml.orders.length).toBeGreaterThan(3);
  });

  it('cover every order kind between them', () => {
    const kinds = new Set([...fromYaml.values()].flatMap((o) => o.orders.map((x) => x.kind)));
    for (const k of ['move', 'attack', 'defend', 'hold', 'build_unit', 'build_structure', 'build_battlement', 'construct', 'siege_action', 'assault', 'upgrade', 'note']) {
      expect(kinds).toContain(k);
    }
  });

  it('get the same receipt, all valid, with the right token', async () => {
    for (const nation of NATIONS) {
      const receipts = [readYamlSheet(await readFile(join(DIR, `${nation}.yaml`))), readTextSheet(await readFile(join(DIR, `${nation}.txt`)))].map(
        (sheet) => buildReceipt({ campaign: world.open.campaign, state: world.state, sheet, nation, ...(nation === ARGENTA ? { expectedToken: 's3cret' } : {}) }).receipt,
      );
      const [yaml, text] = receipts as [(typeof receipts)[0], (typeof receipts)[0]];
      expect(yaml.problems).toEqual([]);
      expect(text.problems).toEqual([]);
      expect(text.ok && yaml.ok).toBe(true);
      expect(text.accepted.map((a) => a.summary)).toEqual(yaml.accepted.map((a) => a.summary));
    }
  });

  it('resolve the season to the identical state and events', () => {
    const a = resolveTurn({ campaign: world.open.campaign, state: world.state, orders: turnOrders(fromYaml) });
    const b = resolveTurn({ campaign: world.open.campaign, state: world.state, orders: turnOrders(fromText) });
    expect(b.state).toEqual(a.state);
    expect(b.events).toEqual(a.events);
    expect(a.events.filter((e) => e.type === 'order_rejected')).toEqual([]);
    expect(a.state.turn).toBe(4);
  });

  it('match what the campaign shell resolves from orders/0004/*.yaml, also when text orders are filed as YAML', async () => {
    const expected = resolveTurn({ campaign: world.open.campaign, state: world.state, orders: turnOrders(fromText) });

    const asFiled = await worldCopy();
    await fileOrders(asFiled, { 'argenta.yaml': await readFile(join(DIR, 'argenta.yaml')), 'gondarahl.yaml': await readFile(join(DIR, 'gondarahl.yaml')) });
    const filed = await runTurn(asFiled);
    expect(filed.state).toEqual(expected.state);

    const fromMail = await worldCopy();
    await fileOrders(fromMail, Object.fromEntries(NATIONS.map((n) => [`${n}.yaml`, ordersToYaml(fromText.get(n) as NationOrders)])));
    const mailed = await runTurn(fromMail);
    expect(mailed.state).toEqual(expected.state);
    expect(mailed.events).toEqual(filed.events);
  });
});
