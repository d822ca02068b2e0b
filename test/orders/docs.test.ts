import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NationOrders } from '../../src/core/orders.js';
import { buildReceipt, renderReceipt } from '../../src/orders/receipt.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, FIXTURES, loadWorld, type World } from './world.js';

/** The examples in docs/orders.md are real: they are read here and must mean what the docs say. */
const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'orders.md'), 'utf8');
const blocks = [...DOC.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1] ?? '', body: m[2] ?? '' }));

let world: World;
beforeAll(async () => {
  world = await loadWorld();
});

const meaning = (o: NationOrders) => ({ nation: o.nation, turn: o.turn, orders: o.orders, casualties: o.casualties, refused: o.refused });

describe('docs/orders.md', () => {
  it('has the text and the YAML example mean the same as the tested fixtures', () => {
    const text = blocks.find((b) => b.lang === 'text' && b.body.includes('Nation: argenta'));
    const yaml = blocks.find((b) => b.lang === 'yaml');
    expect(text && yaml).toBeTruthy();
    const reference = interpretSheet(readYamlSheet(readFileSync(join(FIXTURES, 'equivalence', 'argenta.yaml'))), ARGENTA, world.open.campaign, world.state).orders;
    for (const sheet of [readTextSheet(text?.body ?? ''), readYamlSheet(yaml?.body ?? '')]) {
      expect(sheet.token).toBe('k3x9-tr7q');
      expect(meaning(interpretSheet(sheet, ARGENTA, world.open.campaign, world.state).orders)).toEqual(meaning(reference));
    }
  });

  /** The receipt block that follows an example. */
  const receiptAfter = (example: (typeof blocks)[number] | undefined) =>
    blocks.slice(example ? blocks.indexOf(example) + 1 : 0).find((b) => b.lang === 'text' && b.body.startsWith('Orders test world — orders receipt'));

  it('shows the receipt the example mail really gets', () => {
    const mail = blocks.find((b) => b.lang === 'text' && b.body.startsWith('Hi GM,'));
    const shown = receiptAfter(mail);
    const { receipt } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readTextSheet(mail?.body ?? ''), nation: ARGENTA, expectedToken: 'k3x9-tr7q' });
    expect(renderReceipt(receipt)).toBe(shown?.body);
  });

  it('shows the receipt the example with YAML slips really gets', () => {
    const sheet = blocks.find((b) => b.lang === 'text' && b.body.startsWith('nation: argenta\nturn: 4\norders:'));
    const shown = receiptAfter(sheet);
    expect(sheet && shown).toBeTruthy();
    const { receipt } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readYamlSheet(sheet?.body ?? ''), nation: ARGENTA });
    expect(renderReceipt(receipt)).toBe(shown?.body);
    expect(receipt.problems.length).toBeGreaterThanOrEqual(3);
  });
});
