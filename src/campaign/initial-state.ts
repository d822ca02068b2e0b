import { asExternalId, asHexKey, asNationId, asSettlementId, asUnitId, type NationId } from '../core/ids.js';
import type { AspectPlace, AspectState, GameState, NationState } from '../core/state.js';
import type { CampaignFile } from './schema.js';
import { luckOf } from '../core/aspects/store.js';

/** Turn 0: the nations' start sheets laid out as a game state. */
export function initialState(file: CampaignFile): GameState {
  const state: GameState = { turn: 0, seq: 0, nations: {}, units: {}, settlements: {}, externals: {}, builds: [] };
  for (const [nid, n] of Object.entries(file.nations)) {
    const nation: NationId = asNationId(nid);
    const ns: NationState = {
      id: nation,
      renown: n.start.renown,
      fate: n.start.fate,
      prosperity: n.start.prosperity,
      happiness: n.start.happiness,
      goals: n.goals.map((g) => ({ id: g.id, done: false })),
      battlesWon: 0,
      missedTurns: 0,
      unitSeq: 0,
      // A nation in waiting is out of play until a civil war brings it in (rules.md L3).
      alive: n.breaksFrom === undefined,
    };
    state.nations[nation] = ns;
    for (const s of n.settlements) {
      const id = asSettlementId(s.id);
      state.settlements[id] = { id, name: s.name, nation, level: s.level, hex: asHexKey(s.hex), home: true, captured: false, structures: [...s.structures], battlements: [...s.battlements] };
    }
    for (const u of n.units) {
      const id = asUnitId(u.id);
      state.units[id] = { id, nation, type: u.type, ...(u.name ? { name: u.name } : {}), hex: asHexKey(u.hex), health: u.health ?? 'healthy' };
    }
    for (const e of n.externals) {
      const id = asExternalId(e.id);
      state.externals[id] = { id, type: e.type, nation, hex: asHexKey(e.hex) };
    }
  }
  // The Fate aspects in play from the start (rules.fate.aspects; checked in build-campaign.ts).
  if (file.aspects?.length) state.aspects = file.aspects.map((a) => startingAspect(a));
  return state;
}

function startingAspect(a: NonNullable<CampaignFile['aspects']>[number]): AspectState {
  const on = a.on as AspectPlace;
  return { name: a.name, on, ...(a.owner ? { owner: asNationId(a.owner) } : {}), free: a.boost ? 1 : a.free, ...(a.boost ? { boost: true as const } : {}), ...(a.secret ? { secret: true as const } : {}), ...luckOf(a), since: 0 };
}

