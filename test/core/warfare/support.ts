import { ForcedRandomiser, SeededRandomiser } from '../../../src/core/dice.js';
import { FateLayer } from '../../../src/core/fate/layer.js';
import { asNationId } from '../../../src/core/ids.js';
import { DEFAULT_RULES, type RandomiserKind } from '../../../src/core/settings.js';
import { defaultBattlefield } from '../../../src/core/warfare/battlefield.js';
import { catalogue } from '../../../src/core/warfare/catalogue.js';
import { streamDraws } from '../../../src/core/warfare/draws.js';
import { makeCommander, newWarState, type CommanderInput, type WarState } from '../../../src/core/warfare/state.js';
import type { Battlefield, Unit } from '../../../src/core/warfare/types.js';

export const NATIONS = { attacker: asNationId('red'), defender: asNationId('blue') };

/** A battle's draws: the Fate results given, in order (forced, so no card is drawn), under four Fate dice. */
export function forcedStream(results: number[], randomiser: RandomiserKind = 'fateDice') {
  const base = new ForcedRandomiser({ 'warfare:test': results }, undefined);
  return new FateLayer(base, { ...DEFAULT_RULES.fate, randomiser }, () => undefined).stream('warfare:test');
}

export function seededStream(seed: string, randomiser: RandomiserKind = 'deck') {
  return new FateLayer(new SeededRandomiser(seed, 1), { ...DEFAULT_RULES.fate, randomiser }, () => undefined).stream('warfare:test');
}

export interface Setup {
  commanders: CommanderInput[];
  /** Units as "id: type @commander". */
  units: string[];
  field?: Battlefield;
  ramparts?: { type: string; zone: string }[];
}

export function units(list: string[]): Unit[] {
  return list.map((line) => {
    const m = /^(\S+): (\S+) @(\S+)$/.exec(line)!;
    return { id: m[1]!, type: m[2]!, commander: m[3]!, side: 'attacker', out: false };
  });
}

export function battle(setup: Setup, results: number[]): WarState {
  const commanders = setup.commanders.map(makeCommander);
  const side = new Map(commanders.map((c) => [c.id, c.side]));
  return newWarState({
    catalogue: catalogue(),
    field: setup.field ?? defaultBattlefield(),
    nations: NATIONS,
    commanders,
    units: units(setup.units).map((u) => ({ ...u, side: side.get(u.commander)! })),
    ramparts: (setup.ramparts ?? []).map((r) => ({ ...r, boxes: [false, false, false], taken: [], fallen: false })),
    draws: streamDraws(forcedStream(results), 'fateDice', NATIONS),
  });
}
