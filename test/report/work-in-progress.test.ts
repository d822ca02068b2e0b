import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asExternalId, asHexKey, asNationId, asSettlementId, asUnitId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';
import { gmView } from '../../src/report/gm-view.js';
import { nationView } from '../../src/report/nation-view.js';
import { renderOrderTemplate } from '../../src/report/order-template.js';
import { FIXTURE, FIXTURE_TURNS, play, type Played } from './support.js';

/**
 * Work in progress in the views: after turn 1 of the report fixture,
 * Argenta's Pathfinders are put to building a Silver Mine where they stand
 * and Borea's Storm Riders to besieging Argentum. Each nation sees its own
 * unit's work; the GM sees both; no nation sees another's build.
 */
let played: Played;
let state: GameState;
beforeAll(async () => {
  played = await play(FIXTURE, FIXTURE_TURNS, 'work-in-progress');
  state = structuredClone(played.turns[0]!.state);
  const pathfinders = state.units[asUnitId('pathfinders')]!;
  state.builds.push({ id: 'b900', nation: asNationId('argenta'), hex: pathfinders.hex, builder: pathfinders.id, project: { kind: 'external', externalId: asExternalId('x900'), structure: 'silver-mine' }, turnsLeft: 1, startedTurn: 1 });
  const riders = state.units[asUnitId('storm-riders')]!;
  riders.hex = asHexKey('2,4');
  riders.besieging = asSettlementId('argentum');
});
afterAll(() => played?.cleanup());

const viewOf = (nation: string) => nationView(played.open.campaign, played.turns[0]!.before, state, [], asNationId(nation));

describe('work in progress in reports and order sheets', () => {
  it("shows a builder's work in its nation's units, with the turns left", () => {
    const unit = viewOf('argenta').units.find((u) => u.id === 'pathfinders');
    expect(unit?.doing).toEqual([`building Silver Mine at ${unit?.hex}, 1 turn left`]);
  });

  it("shows a besieger's siege in its nation's units", () => {
    expect(viewOf('borea').units.find((u) => u.id === 'storm-riders')?.doing).toEqual([expect.stringMatching(/^besieging Argentum/)]);
  });

  it('marks the busy unit in the order sheet, and says its move needs abandon', () => {
    const sheet = renderOrderTemplate(viewOf('argenta'), played.open.campaign);
    const lines = sheet.split('\n');
    const at = lines.findIndex((l) => l.includes('# busy: building Silver Mine at'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at - 1]).toContain('(pathfinders)');
    expect(lines.find((l) => l.includes('{move: pathfinders,'))).toContain('add "abandon: true" to give the work up');
  });

  it("never shows a nation another's builds", () => {
    expect(JSON.stringify(viewOf('borea'))).not.toContain('building Silver Mine');
    expect(JSON.stringify(viewOf('corsa'))).not.toContain('building Silver Mine');
  });

  it('shows the GM every unit at work', () => {
    const gm = gmView(played.open.campaign, played.turns[0]!.before, state, []);
    expect(gm.world.units.find((u) => u.id === 'pathfinders')?.building).toEqual([expect.stringMatching(/^building Silver Mine at .*, 1 turn left$/)]);
    const argenta = gm.nations.find((n) => n.id === 'argenta');
    expect(argenta?.units.find((u) => u.id === 'pathfinders')?.doing).toHaveLength(1);
  });
});
