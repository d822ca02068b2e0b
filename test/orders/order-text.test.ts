import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { orderNames, orderText } from '../../src/core/order-text.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { ARGENTA, FIXTURES, loadWorld, type World } from './world.js';

/** The GM's list of orders and the engine's refusals write orders in the players' own order language. */
let world: World;
beforeAll(async () => {
  world = await loadWorld();
});

const { cases } = parse(readFileSync(join(FIXTURES, 'receipt-lines.yaml'), 'utf8')) as { cases: { line: string; accepted?: string }[] };
const valid = cases.filter((c) => c.accepted !== undefined).map((c) => c.line);

describe('an order written back as a line of text', () => {
  it.each(valid)('reads back to the same order: %s', (line) => {
    const first = interpretSheet(readTextSheet(line), ARGENTA, world.open.campaign, world.state).orders.orders;
    expect(first).toHaveLength(1);
    const written = orderText(first[0]!);
    expect(written).not.toMatch(/[{}=[\]]|\bundefined\b|_/);
    const again = interpretSheet(readTextSheet(written), ARGENTA, world.open.campaign, world.state).orders;
    expect(again.refused, written).toBeUndefined();
    expect(again.orders).toEqual(first);
  });

  it.each(valid)('with the names a sheet writes, reads back to the same order: %s', (line) => {
    const first = interpretSheet(readTextSheet(line), ARGENTA, world.open.campaign, world.state).orders.orders;
    const written = orderText(first[0]!, orderNames(world.open.campaign, world.state, ARGENTA));
    const again = interpretSheet(readTextSheet(written), ARGENTA, world.open.campaign, world.state).orders;
    expect(again.refused, written).toBeUndefined();
    expect(again.orders).toEqual(first);
  });
});
