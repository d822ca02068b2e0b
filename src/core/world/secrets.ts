import { compareIds, type NationId } from '../ids.js';
import { projectName } from '../work.js';
import type { Side } from './act.js';
import type { Secret } from './action-types.js';

/**
 * What a spy's success buys (the `reveal` effect), told to the spy's nation
 * alone in a `secret_learned` event: the target's Renown and Fate as a range,
 * the foreign units about the place, the work under way there, or one of its
 * goals not yet met. Nothing else of the target goes into it (docs/rules.md D1).
 */
export function revealSecret(s: Side, e: { what: Secret; within: number }): void {
  const text = secretText(s, e.what, e.within);
  if (!text) return;
  const about = s.place.owner;
  s.ctx.emit({ type: 'secret_learned', nations: [s.nation], nation: s.nation, ...(about ? { about } : {}), action: s.def.id, what: e.what, text });
}

/** Renown in tens and Fate in fives: "between 40 and 49". */
export function band(value: number, width: number): string {
  const lo = Math.floor(value / width) * width;
  return `between ${lo} and ${lo + width - 1}`;
}

function secretText(s: Side, what: Secret, within: number): string | undefined {
  const { ctx, place } = s;
  const owner = place.owner;
  const ownerName = owner ? ctx.nationDef(owner).name : undefined;
  switch (what) {
    case 'renown_fate': {
      if (!owner) return undefined;
      const n = ctx.nationState(owner);
      return `${ownerName} holds Renown ${band(n.renown, 10)} and Fate ${band(n.fate, 5)}.`;
    }
    case 'units': {
      const counts = new Map<NationId, Map<string, number>>();
      for (const hex of s.scene.hexesNear(place.hex, within)) {
        for (const u of s.scene.unitsAt(hex)) {
          if (u.nation === s.nation) continue;
          const cls = ctx.unitType(u).class;
          const byClass = counts.get(u.nation) ?? new Map<string, number>();
          byClass.set(cls, (byClass.get(cls) ?? 0) + 1);
          counts.set(u.nation, byClass);
        }
      }
      // A nation is watched from its settlement nearest the spy.
      const at = place.where.scope === 'nation' ? (ctx.settlementAt(place.hex)?.name ?? place.hex) : place.label;
      const around = within === 0 ? `At ${at}` : `Within ${within} hex${within === 1 ? '' : 'es'} of ${at}`;
      if (!counts.size) return `${around} stand no foreign units.`;
      const parts = [...counts.keys()].sort(compareIds).map((n) => {
        const byClass = counts.get(n)!;
        return `${ctx.nationDef(n).name}: ${[...byClass.keys()].sort().map((c) => `${byClass.get(c)} ${c}`).join(', ')}`;
      });
      return `${around} stand ${parts.join('; ')}.`;
    }
    case 'work': {
      if (!owner) return undefined;
      const here = place.settlement;
      const builds = ctx.state.builds.filter((b) => b.nation === owner && (place.where.scope === 'nation' || b.settlement === here?.id || b.hex === place.hex));
      if (!builds.length) return `${ownerName} has no work under way ${place.where.scope === 'nation' ? 'anywhere' : `at ${place.label}`}.`;
      const list = builds.slice(0, 6).map((b) => `${projectName(ctx.campaign, b.project, owner)} at ${b.settlement ? (ctx.settlement(b.settlement)?.name ?? b.hex) : b.hex} (${b.turnsLeft} turn${b.turnsLeft === 1 ? '' : 's'} left)`);
      return `${ownerName} is building: ${list.join('; ')}${builds.length > 6 ? ` and ${builds.length - 6} more` : ''}.`;
    }
    case 'goal': {
      if (!owner) return undefined;
      const done = new Set(ctx.nationState(owner).goals.filter((g) => g.done).map((g) => g.id));
      const open = ctx.nationDef(owner).goals.filter((g) => !done.has(g.id));
      if (!open.length) return `${ownerName} has no goal left to pursue.`;
      // Which goal the spy finds is its own roll, so a second success may find another.
      const pick = s.stream.roll('d100');
      const goal = open[(pick.value - 1) % open.length]!;
      return `A goal of ${ownerName}: "${goal.text.trim()}"`;
    }
  }
}
