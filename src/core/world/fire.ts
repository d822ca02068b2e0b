import type { TurnContext } from '../context.js';
import { leaderOf } from '../leaders.js';
import type { NationId, SettlementId, UnitId } from '../ids.js';
import { applyEffect } from './effects.js';
import { askRoll } from './pending.js';
import type { EventScene } from './scene.js';
import type { EventDef, EventTarget } from './types.js';

/** An event befalls a nation: logged with its text filled in, kept in its history, its effects applied in order. */
export function fireEvent(ctx: TurnContext, scene: EventScene, nation: NationId, def: EventDef, target: EventTarget, how: 'drawn' | 'follow-up' | 'gm'): void {
  const fill = filler(ctx, scene, nation, target);
  const where = target.scope === 'nation' ? {} : { target: target.scope === 'hex' ? target.hex : target.id, at: target.hex };
  ctx.emit({
    type: 'event_fired',
    nations: [nation],
    nation,
    event: def.id,
    title: fill(def.title),
    text: fill(def.text),
    tone: def.tone,
    scope: def.scope,
    ...where,
    how,
    ...(def.public ? { public: fill(def.public) } : {}),
  });
  const n = ctx.nationState(nation);
  n.history = [...(n.history ?? []), { event: def.id, turn: ctx.turn }];
  const struck = { scene, nation, target, event: def.id, title: fill(def.title), fill };
  for (const effect of def.effects) applyEffect(ctx, struck, effect);
  askRoll(ctx, nation, def, target, fill);
}

/** {nation}, {leader}, {settlement}, {unit} and {hex}, as the event's target names them. */
export function filler(ctx: TurnContext, scene: EventScene, nation: NationId, target: EventTarget): (text: string) => string {
  const def = ctx.nationDef(nation);
  const settlement =
    target.scope === 'settlement'
      ? ctx.settlement(target.id as SettlementId)
      : target.scope === 'nation'
        ? (scene.settlementsOf(nation).find((s) => s.level === 'capital') ?? scene.settlementsOf(nation)[0])
        : ctx.settlementAt(target.hex);
  const unit = target.scope === 'unit' ? ctx.unit(target.id as UnitId) : undefined;
  const values: Record<string, string> = {
    nation: def.name,
    // The ruler now (an heir after a succession), not the campaign's first; an empty throne has its council.
    leader: leaderOf(ctx.campaign, ctx.nationState(nation)).name ?? `the council of ${def.name}`,
    settlement: settlement?.name ?? 'the realm',
    unit: unit ? (unit.name ?? def.unitTypes[unit.type]?.name ?? unit.id) : 'a company',
    hex: target.scope === 'nation' ? (settlement?.hex ?? '') : target.hex,
  };
  return (text) => text.replace(/\{(nation|leader|settlement|unit|hex)\}/g, (_, k: string) => values[k] ?? '');
}

/** Whether a saved target (of a follow-up or a GM's injection) still stands and is the nation's. */
export function targetStands(ctx: TurnContext, nation: NationId, target: EventTarget): EventTarget | undefined {
  if (target.scope === 'settlement') {
    const s = ctx.settlement(target.id as SettlementId);
    return s && s.nation === nation ? { ...target, hex: s.hex } : undefined;
  }
  if (target.scope === 'unit') {
    const u = ctx.unit(target.id as UnitId);
    return u && u.nation === nation ? { ...target, hex: u.hex } : undefined;
  }
  return target;
}
