import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { asExternalId, asHexKey, asUnitId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';
import { buildReceipt, renderReceipt } from '../../src/orders/receipt.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, loadWorld, type World } from './world.js';

/**
 * Orders that would end work in progress, on the orders world (turn 4
 * pending): argenta-8, a worker at 6,2, is two turns into a three-turn Silver
 * mine; argenta-9 and argenta-10 besiege Stonehold. Both sheet forms say the
 * same thing and get the same receipt.
 */
let world: World;
let state: GameState;
beforeAll(async () => {
  world = await loadWorld();
  state = structuredClone(world.state);
  state.builds.push({ id: 'b90', nation: ARGENTA, hex: asHexKey('6,2'), builder: asUnitId('argenta-8'), project: { kind: 'external', externalId: asExternalId('x90'), structure: 'mine' }, turnsLeft: 1, startedTurn: 2 });
});

const textSheet = (orders: string) => readTextSheet(`Nation: argenta\nTurn: 4\n${orders}\n`);
const yamlSheet = (orders: string) => readYamlSheet(`nation: argenta\nturn: 4\norders:\n${orders}\n`);
const receipt = (sheet: ReturnType<typeof readTextSheet>, campaign: Campaign = world.open.campaign) => buildReceipt({ campaign, state, sheet, nation: ARGENTA }).receipt;

const MINE_LOST = 'Silver mine at 6,2 (10 Renown paid, 2 of 3 turns of work done)';

describe('orders that would abandon work in progress', () => {
  it.each([
    ['plain text', textSheet('move argenta-8 to 6,3')],
    ['YAML', yamlSheet('  - {move: argenta-8, to: "6,3"}')],
  ])('%s: a worker moved off its site without abandon is refused, saying what would be lost and how to give it up', (_form, sheet) => {
    const r = receipt(sheet);
    expect(r.accepted).toEqual([]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]?.reason).toBe(`Construction worker (argenta-8) would abandon ${MINE_LOST}`);
    expect(r.problems[0]?.valid).toContain('the work goes on; to give it up, add "abandon: true"');
    expect(r.ok).toBe(false);
  });

  it.each([
    ['plain text', textSheet('move argenta-8 to 6,3 abandoning')],
    ['plain text, subject first', textSheet('argenta-8 moves to 6,3, abandoning the work')],
    ['YAML', yamlSheet('  - {move: argenta-8, to: "6,3", abandon: true}')],
  ])('%s: with abandon the move is accepted and the receipt warns what is lost', (_form, sheet) => {
    const r = receipt(sheet);
    expect(r.problems).toEqual([]);
    expect(r.accepted[0]?.abandons).toEqual([`Construction worker (argenta-8): ${MINE_LOST}`]);
    expect(renderReceipt(r)).toContain(`! WARNING: this gives up work in progress, Construction worker (argenta-8): ${MINE_LOST}; it is lost`);
  });

  it.each([
    ['plain text', textSheet('move argenta-9 to 7,4 abandoning')],
    ['YAML', yamlSheet('  - move: argenta-9\n    to: "7,4"\n    abandon: yes')],
  ])('%s: a besieger leaving with abandon is warned that its place in the siege goes', (_form, sheet) => {
    const r = receipt(sheet);
    expect(r.problems).toEqual([]);
    expect(r.accepted[0]?.abandons).toEqual(["Marines (argenta-9): the siege of Stonehold (1 other besieger holds it)"]);
  });

  it('a besieger leaving without abandon is refused; the siege goes on', () => {
    const r = receipt(textSheet('move argenta-10 to 7,4'));
    expect(r.problems[0]?.reason).toBe('Marines (argenta-10) would abandon the siege of Stonehold (1 other besieger holds it)');
  });

  it('a unit with no work moves without a word about abandoning', () => {
    const r = receipt(textSheet('move argenta-7 to 10,1'));
    expect(r.problems).toEqual([]);
    expect(r.accepted[0]?.abandons).toBeUndefined();
    expect(renderReceipt(r)).not.toContain('WARNING');
  });

  it('with rules.abandonWork allow, the move needs no word but the receipt still warns', () => {
    const campaign: Campaign = { ...world.open.campaign, rules: { ...world.open.campaign.rules, abandonWork: 'allow' } };
    const r = receipt(textSheet('move argenta-8 to 6,3'), campaign);
    expect(r.problems).toEqual([]);
    expect(r.accepted[0]?.abandons).toEqual([`Construction worker (argenta-8): ${MINE_LOST}`]);
  });

  it('"abandon" takes true or false, and says so', () => {
    const r = receipt(yamlSheet('  - {move: argenta-8, to: "6,3", abandon: perhaps}'));
    expect(r.problems[0]?.reason).toBe('"abandon" is true or false, not "perhaps"');
  });

  it('a quoted name is never the word', () => {
    const r = receipt(textSheet('move argenta-8 to "abandoning"'));
    expect(r.accepted).toEqual([]);
    expect(r.problems[0]?.reason).not.toContain('would abandon');
  });
});
