import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReceipt, problemLine, renderReceipt, type OrderReceipt } from '../../src/orders/receipt.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import type { OrderSheet } from '../../src/orders/sheet.js';
import { ARGENTA, FIXTURES, loadWorld, type World } from './world.js';

interface SlipCase {
  name: string;
  sheet: string;
  accepted: number[];
  problems: string[];
  turn?: 'pending' | 'assumed';
  closing?: string;
}

const table = parse(readFileSync(join(FIXTURES, 'yaml-slips.yaml'), 'utf8')) as { cases: SlipCase[] };

let world: World;
beforeAll(async () => {
  world = await loadWorld();
});

function receiptOf(sheet: OrderSheet): OrderReceipt {
  return buildReceipt({ campaign: world.open.campaign, state: world.state, sheet, nation: ARGENTA }).receipt;
}

describe('YAML slips in an order file', () => {
  it.each(table.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const receipt = receiptOf(readYamlSheet(c.sheet));
    expect(receipt.problems.map(problemLine)).toEqual(c.problems);
    expect(receipt.accepted.map((a) => a.line)).toEqual(c.accepted);
    expect(receipt.turnStatus).toBe(c.turn ?? 'pending');
    const text = renderReceipt(receipt);
    expect(text).not.toMatch(/implicit|compact mapping|block sequence|indicator|\(the whole file\)/i);
    if (c.closing) expect(text.trimEnd().split('\n').pop()).toBe(c.closing);
    if (c.accepted.length === 0) expect(text).not.toContain('The valid orders stand');
  });

  it('reports a slip in a sheet pasted into a mail at the line of the mail', () => {
    const mail = ['Hi GM,', '', 'here are my orders for the winter:', '', ...table.cases[0]!.sheet.trimEnd().split('\n'), '', 'Cheers,', 'Cristoval'].join('\n');
    const receipt = receiptOf(readTextSheet(mail));
    expect(receipt.problems.map((p) => p.line)).toEqual([10]);
    expect(receipt.accepted.map((a) => a.line)).toEqual([8, 11]);
    expect(receipt.turnStatus).toBe('pending');
  });

  it('still refuses anchors, tags and repeated keys whole', () => {
    for (const source of ['turn: 4\norders:\n  - &a hold: argenta-5\n  - hold: *a\n', 'turn: 4\norders:\n  - !!binary hold: argenta-5\n', 'turn: 4\nturn: 5\norders:\n  - hold: argenta-5\n']) {
      const sheet = readYamlSheet(source);
      expect(sheet.entries, source).toEqual([]);
      expect(sheet.problems.length, source).toBeGreaterThan(0);
    }
  });
});
