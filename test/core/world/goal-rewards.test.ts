import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ForcedRandomiser } from '../../../src/core/dice.js';
import { asNationId } from '../../../src/core/ids.js';
import { resolveTurn } from '../../../src/core/turn.js';
import { buildState, loadWorld } from '../../support/case-world.js';
import { missingEvents } from '../../support/match.js';

/**
 * A goal's reward may be a list of effects in the events' vocabulary: Renown,
 * Fate and indicators as before, and units, unlocks and discoveries too
 * (docs/rules.md G3, E9). The Fate it brings arrives with the goal.
 */
const WORLD = join(import.meta.dirname, '..', '..', 'cases', '_world.yaml');
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-goal-rewards-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function worldWithReward(reward: string) {
  const text = readFileSync(WORLD, 'utf8');
  const line = 'reward: { renown: 20 } }';
  expect(text).toContain(line);
  const path = join(scratch, `world-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text.replace(line, `reward: ${reward} }`));
  return loadWorld(path);
}

const argenta = asNationId('argenta');

describe('goal rewards as effects', () => {
  it('bring Fate, Renown, a unit and an unlock when the goal is achieved', () => {
    const campaign = worldWithReward('[{ renown: 20 }, { fate: 3 }, { unit_gained: { type: marines, name: Silver Guard } }, { unlock: { unitType: musketeers } }]');
    expect(campaign.nations[argenta]!.goals[0]).toMatchObject({ reward: { renown: 20, fate: 3 }, effects: [{ kind: 'unit_gained', unitType: 'marines' }, { kind: 'unlock', unitType: 'musketeers' }] });
    const state = buildState(campaign, {
      nations: { argenta: { fate: 1 } },
      settlements: { argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' } },
      externals: { m1: { nation: 'argenta', type: 'mine', hex: '9,4' } },
    });
    const { state: after, events } = resolveTurn({ campaign, state, orders: { nations: {}, gm: [] }, dice: new ForcedRandomiser({}, undefined) });
    const because = 'goal achieved: Secure the new silver vein';
    expect(
      missingEvents(events, [
        { type: 'goal_completed', nation: argenta, goal: 'silver' },
        { type: 'resource', nation: argenta, resource: 'renown', delta: 20, reason: because },
        { type: 'resource', nation: argenta, resource: 'fate', delta: 3, balance: 4, reason: because },
        { type: 'unit_created', nation: argenta, unitType: 'marines', at: '3,3' },
        { type: 'unlocked', nation: argenta, what: 'unit_type', id: 'musketeers' },
      ]),
    ).toEqual([]);
    // The Fate is in hand: 1 + 3 from the goal + 5 income from the capital.
    expect(after.nations[argenta]!.fate).toBe(9);
    expect(Object.values(after.units).find((u) => u.type === 'marines')?.name).toBe('Silver Guard');
  });

  it('refuse an effect that is no reward, with the goal\'s key', () => {
    expect(() => worldWithReward('[{ renown: 5 }, { task: nowhere }]')).toThrow(/nations\.argenta\.goals\[0\]\.reward\[1\]: a goal's reward cannot set a task/);
    expect(() => worldWithReward('[{ gold: 5 }]')).toThrow(/nations\.argenta\.goals\[0\]\.reward\[0\]\.gold: unknown effect "gold"/);
  });
});
