import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { asSettlementId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';
import { acceptedLine, buildReceipt, problemLine } from '../../src/orders/receipt.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { ARGENTA, GONDARAHL, loadAspectWorld } from './world.js';

/**
 * Teamwork and obstacle invokes in the order language (docs/orders.md,
 * "Aspects"; docs/rules.md A10): "for <nation>" or "against <nation>" after
 * the siege, battle or assault, echoed by the receipt with what they do.
 */
let campaign: Campaign;
let state: GameState;
beforeAll(async () => {
  ({ campaign, state } = await loadAspectWorld((s) => {
    const somewhere = Object.values(s.settlements).find((x) => x.nation !== ARGENTA)!;
    return [{ name: 'Crumbling Mortar', on: { settlement: asSettlementId(somewhere.id) }, free: 1, since: 1 }];
  }));
});

const linesOf = (text: string) => {
  const r = buildReceipt({ campaign, state, sheet: readTextSheet(text), nation: ARGENTA }).receipt;
  return [...r.accepted.map(acceptedLine), ...r.problems.map(problemLine)];
};

describe('teamwork and obstacle invokes', () => {
  it('name the nation helped or hindered after the siege, and the receipt says what they do', () => {
    const s = Object.values(state.settlements).find((x) => x.nation !== ARGENTA)!;
    const name = campaign.nations[GONDARAHL]!.name;
    const lines = linesOf([`invoke "Crumbling Mortar" on the siege of ${s.name} for ${name}`, `invoke "Crumbling Mortar" on the siege of ${s.name} against ${name} fate`].join('\n'));
    expect(lines[0]).toContain(`Invokes "Crumbling Mortar" on ${name}'s rolls at the siege of ${s.name} for +2 (teamwork, at most +3 in all on one roll): a free invoke`);
    expect(lines[1]).toContain(`for +2 to the number to beat (an obstacle): 1 Fate`);
  });

  it('work on a battle, for a side or against it, and are refused on an event\'s roll and for one\'s own nation', () => {
    const name = campaign.nations[GONDARAHL]!.name;
    const [team, obstacle] = linesOf(['invoke "Crumbling Mortar" on the battle at 5,5 for Gondarahl', 'invoke "Crumbling Mortar" on the battle at 5,5 against Gondarahl fate'].join('\n'));
    expect(team).toContain(`Invokes "Crumbling Mortar" on ${name}'s side in the battle at 5,5 for +2 (teamwork, at most +3 in all on one roll)`);
    expect(obstacle).toContain(`for +2 to the side ${name} fights (an obstacle): 1 Fate`);
    expect(linesOf('invoke "Crumbling Mortar" on the roll bandits for Gondarahl').join('\n')).toMatch(/teamwork and obstacle invokes work on sieges, battles and assaults/);
    expect(linesOf('invoke "Crumbling Mortar" on the battle at 5,5 for Argenta').join('\n')).toMatch(/an invoke for your own nation is a plain invoke/);
  });
});
