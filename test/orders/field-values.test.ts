import { beforeAll, describe, expect, it } from 'vitest';
import { buildReceipt } from '../../src/orders/receipt.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, loadWorld, type World } from './world.js';

/**
 * A YAML order's field given a map or a list where a word or number belongs: the refusal quotes the
 * value as it was written, in YAML's flow form, never JavaScript's "[object Object]" (nor a one-word list as the word) (found by the linter's no-base-to-string).
 */
let world: World;
beforeAll(async () => {
  world = await loadWorld();
});

const reasonFor = (order: string) => {
  const sheet = readYamlSheet(`nation: argenta\nturn: 4\norders:\n  - ${order}\n`);
  const r = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet, nation: ARGENTA }).receipt;
  return r.problems[0]?.reason;
};

describe('a map or list where a value belongs', () => {
  it('fate', () => {
    expect(reasonFor('{hold: argenta-8, fate: {points: 3}}')).toBe('Fate must be a whole number of Fate points, not "{points: 3}"');
  });

  it('a yes-or-no field', () => {
    expect(reasonFor('{move: argenta-8, to: "6,3", abandon: [yes]}')).toBe('"abandon" is true or false, not "[yes]"');
  });

  it("a battle plan's withdraw", () => {
    expect(reasonFor('{plan: defensive, withdraw: {at: 2}}')).toBe('"withdraw" is the number of units left at which the side leaves the field, not "{at: 2}"');
  });
});
