import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptedLine, buildReceipt, problemLine, type OrderReceipt } from '../../src/orders/receipt.js';
import type { OrderSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, FIXTURES, loadWorld, type World } from './world.js';

interface LineCase {
  line: string;
  accepted?: string;
  problem?: string;
  valid?: string;
  did_you_mean?: string;
}

interface SheetCase {
  name: string;
  body: string;
  token?: string;
  accepted: string[];
  problems: string[];
  refused?: string;
  ok: boolean;
}

const table = parse(readFileSync(join(FIXTURES, 'receipt-lines.yaml'), 'utf8')) as { cases: LineCase[]; sheets: SheetCase[] };

let world: World;
beforeAll(async () => {
  world = await loadWorld();
});

function receiptOf(sheet: OrderSheet, token?: string): OrderReceipt {
  return buildReceipt({ campaign: world.open.campaign, state: world.state, sheet, nation: ARGENTA, ...(token !== undefined ? { expectedToken: token } : {}) }).receipt;
}

const linesOf = (r: OrderReceipt) => [...r.accepted.map(acceptedLine), ...r.problems.map(problemLine)];

function expectedLine(c: LineCase): string {
  if (c.accepted !== undefined) return `line 1: ${c.accepted}`;
  return problemLine({ line: 1, text: c.line, reason: c.problem ?? '', ...(c.valid ? { valid: c.valid } : {}), ...(c.did_you_mean ? { didYouMean: c.did_you_mean } : {}) });
}

describe('the receipt table', () => {
  it('has at least 60 order lines, valid and broken', () => {
    expect(table.cases.length).toBeGreaterThanOrEqual(60);
    expect(table.cases.filter((c) => c.accepted !== undefined).length).toBeGreaterThanOrEqual(25);
    expect(table.cases.filter((c) => c.problem !== undefined).length).toBeGreaterThanOrEqual(25);
  });

  it.each(table.cases.map((c) => [c.line, c] as const))('%s', (_line, c) => {
    const receipt = receiptOf(readTextSheet(c.line));
    expect(linesOf(receipt)).toEqual([expectedLine(c)]);
    expect(receipt.ok).toBe(c.accepted !== undefined);
  });

  it.each(table.cases.map((c) => [c.line, c] as const))('as a YAML one-line order: %s', (_line, c) => {
    const receipt = receiptOf(readYamlSheet(`orders:\n  - ${JSON.stringify(c.line)}\n`));
    const got = linesOf(receipt).map((l) => l.replace(/^line 2: /, 'line 1: ').replace(`"${JSON.stringify(c.line)}"`, `"${c.line}"`));
    expect(got).toEqual([expectedLine(c)]);
  });
});

describe('whole sheets', () => {
  it.each(table.sheets.map((s) => [s.name, s] as const))('%s', (_name, s) => {
    const receipt = receiptOf(readTextSheet(s.body), s.token);
    expect(receipt.accepted.map(acceptedLine)).toEqual(s.accepted);
    expect(receipt.problems.map(problemLine)).toEqual(s.problems);
    expect(receipt.refusedWhole).toBe(s.refused);
    expect(receipt.ok).toBe(s.ok);
  });
});
