import type { LoggedEvent } from '../core/events.js';
import type { NationId, SettlementId, UnitId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { describeEvent } from './describe.js';
import type { Namer } from './namer.js';
import type { MapChanges, MapMark, MapMove } from './types.js';

/**
 * This turn on the map: moves as paths, and marks where battles and sieges
 * were, units were lost, and settlements and structures are new. Read from
 * `mine`, the events the nation took part in (nationView's choice), and from
 * nothing else, so the map tells no more than the report's text.
 *
 * A lost unit is marked where it fell: a battle's hex for casualties (the
 * reader fought there), else its own last hex this turn — only for the
 * reader's own units, whose whereabouts it knows.
 */
export function mapChangesOf(
  mine: readonly LoggedEvent[],
  nation: NationId,
  before: GameState,
  after: GameState,
  names: Namer,
  /** An event's sentence (the report's own, when it has made it already). */
  told: (e: LoggedEvent) => string = (e) => describeEvent(e, names),
): MapChanges {
  const moves: MapMove[] = [];
  const marks: MapMark[] = [];
  const lost = new Set<UnitId>();
  const where = new Map<UnitId, string>();
  const hexOfSettlement = (id: SettlementId) => after.settlements[id]?.hex ?? before.settlements[id]?.hex;
  const lastHex = (id: UnitId) => where.get(id) ?? before.units[id]?.hex ?? after.units[id]?.hex;
  const mark = (kind: MapMark['kind'], hex: string | undefined, text: string) => {
    if (hex !== undefined) marks.push({ kind, hex, text });
  };
  const unitLost = (id: UnitId, hex: string | undefined) => {
    if (lost.has(id) || hex === undefined) return;
    lost.add(id);
    mark('lost', hex, `Lost: ${names.unit(id)}`);
  };

  for (const e of mine) {
    switch (e.type) {
      case 'unit_moved': {
        const hexes = [e.from, ...e.path.filter((h, i) => h !== (i === 0 ? e.from : e.path[i - 1]))];
        moves.push({ unit: names.unit(e.unit), nation: names.unitState(e.unit)?.nation ?? nation, hexes, fled: false });
        for (const id of [e.unit, ...(e.carried ?? [])]) where.set(id, e.to);
        break;
      }
      case 'unit_fled':
        moves.push({ unit: names.unit(e.unit), nation: names.unitState(e.unit)?.nation ?? nation, hexes: [e.from, e.to], fled: true });
        where.set(e.unit, e.to);
        break;
      case 'battle': {
        // A short sentence (the report has the rolls): who attacked whom, and who won.
        const [a, d] = [names.nationName(e.attacker.nation), names.nationName(e.defender.nation)];
        mark('battle', e.at, `${e.kind === 'assault' ? 'Assault' : 'Battle'} at ${e.at}: ${a} attacked ${d}; ${e.winner === 'draw' ? 'a draw' : `${e.winner === 'attacker' ? a : d} won`}.`);
        for (const c of e.casualties) if (c.result === 'destroyed') unitLost(c.unit, e.at);
        break;
      }
      case 'warfare': {
        // Marked like any battle; the report's Warfare section has the exchanges.
        const [a, d] = [names.nationName(e.attacker), names.nationName(e.defender)];
        mark('battle', e.at, `Warfare at ${e.at}: ${a} attacked ${d}; ${e.winner === 'attacker' ? a : d} won.`);
        for (const c of e.casualties) if (c.result === 'destroyed') unitLost(c.unit, e.at);
        break;
      }
      case 'siege_started':
      case 'siege_lifted':
      case 'siege_roll':
      case 'battlement_destroyed':
        mark('siege', hexOfSettlement(e.settlement), told(e));
        break;
      case 'unit_health':
        if (e.to === 'destroyed' && names.unitState(e.unit)?.nation === nation) unitLost(e.unit, lastHex(e.unit));
        break;
      case 'settlement_founded':
        mark('new', e.at, told(e));
        break;
      case 'settlement_captured':
      case 'settlement_revolted':
        mark(e.to === nation ? 'new' : 'lost', hexOfSettlement(e.settlement), told(e));
        break;
      case 'civil_war':
        for (const s of e.settlements) mark(e.into === nation ? 'new' : 'lost', hexOfSettlement(s), told(e));
        break;
      case 'settlement_upgraded':
        mark('new', hexOfSettlement(e.settlement), told(e));
        break;
      case 'build_completed':
        // Structures and battlements only: a trained unit is drawn as a unit, and a new settlement, an
        // upgrade or an external have events of their own. The kind is in `what` (construction.ts, describeProject).
        if (e.what.startsWith('structure:') || e.what.endsWith(' battlement')) mark('new', e.at, told(e));
        break;
      case 'external_built':
        mark('new', e.at, told(e));
        break;
      case 'external_captured':
        mark(e.to === nation ? 'new' : 'lost', e.at, told(e));
        break;
      case 'external_destroyed':
        if (e.nation === nation) mark('lost', e.at, told(e));
        break;
      default:
        break;
    }
  }
  // One mark of a kind per hex is enough for the drawing; its tooltip keeps every sentence.
  const merged = new Map<string, MapMark>();
  for (const m of marks) {
    const key = `${m.kind} ${m.hex}`;
    const had = merged.get(key);
    merged.set(key, had ? { ...had, text: `${had.text} ${m.text}` } : m);
  }
  return { moves, marks: [...merged.values()] };
}
