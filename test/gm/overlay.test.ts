import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isMap, parseDocument } from 'yaml';
import { applyOverlay, mergeInto } from '../../src/gm/overlay.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = join(ROOT, 'campaigns', 'silversheen');

function merged(base: string, overlay: string): string {
  const doc = parseDocument(base);
  const over = parseDocument(overlay);
  if (!isMap(doc.contents) || !isMap(over.contents)) throw new Error('maps expected');
  mergeInto(doc.contents, over.contents);
  return doc.toString();
}

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a campaign overlay (src/gm/overlay.ts)', () => {
  it('merges maps key by key, replaces lists and scalars, keeps the comments of both files', () => {
    const base = ['# the campaign', 'rules:', '  # cheaper founding', '  newSettlementCost: 50', '  fate:', '    ladderWords: false', 'list: [a, b]', 'title: Old', ''].join('\n');
    const overlay = ['rules:', '  fate:', '    # the deck', '    randomiser: deck', 'list: [c]', 'title: New', 'aspects: []', ''].join('\n');
    expect(merged(base, overlay)).toBe(
      ['# the campaign', 'rules:', '  # cheaper founding', '  newSettlementCost: 50', '  fate:', '    ladderWords: false', '    # the deck', '    randomiser: deck', 'list: [ c ]', 'title: New', 'aspects: []', ''].join('\n'),
    );
  });

  it('applied to a copy of the demo: the files over theirs, campaign.yaml validated, turn 0 left to be written anew', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fc-overlay-'));
    scratch.push(root);
    const dir = join(root, 'campaign');
    cpSync(DEMO, dir, { recursive: true });
    const overlay = join(root, 'overlay');
    mkdirSync(join(overlay, 'orders', '0001'), { recursive: true });
    writeFileSync(join(overlay, 'README.md'), 'what the overlay is\n');
    writeFileSync(join(overlay, 'campaign.yaml'), 'rules:\n  fate: { randomiser: fateDice }\n');
    writeFileSync(join(overlay, 'orders', '0001', 'argenta.yaml'), 'nation: argenta\nturn: 1\norders: []\n');
    expect(await applyOverlay(dir, overlay)).toEqual(['campaign.yaml', 'orders/0001/argenta.yaml']);
    expect(readFileSync(join(dir, 'campaign.yaml'), 'utf8')).toMatch(/rules:\n {2}newSettlementCost: 50\n {2}fate: \{ ?randomiser: fateDice ?\}/);
    expect(readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8')).toContain('orders: []');
    expect(existsSync(join(dir, 'README.md'))).toBe(false);
    expect(existsSync(join(dir, 'turns', '0000'))).toBe(false);
  });

  it('refuses a merge that makes campaign.yaml invalid, naming the setting, and writes nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fc-overlay-'));
    scratch.push(root);
    const dir = join(root, 'campaign');
    cpSync(DEMO, dir, { recursive: true });
    const before = readFileSync(join(dir, 'campaign.yaml'), 'utf8');
    const overlay = join(root, 'overlay');
    mkdirSync(overlay);
    writeFileSync(join(overlay, 'campaign.yaml'), 'rules:\n  fate: { randomiser: tarot }\n');
    await expect(applyOverlay(dir, overlay)).rejects.toThrow(/randomiser/);
    expect(readFileSync(join(dir, 'campaign.yaml'), 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'turns', '0000', 'state.yaml'))).toBe(true);
  });
});
