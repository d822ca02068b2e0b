import type { TurnContext } from '../context.js';
import { takeDue } from '../world/due.js';
import { asHexKey, compareIds, sortedKeys, type NationId } from '../ids.js';
import { dependsOnPlace, holds } from '../world/conditions.js';
import { fireEvent, targetStands } from '../world/fire.js';
import { eventWeight, pickPoint, revoltRisk } from '../world/odds.js';
import { answersOf, judgeTasks, resolveRolls } from '../world/pending.js';
import { resolveCompels } from '../world/compels.js';
import { revolt, garrisoned } from '../world/revolt.js';
import { EventScene } from '../world/scene.js';
import type { Condition, EventCatalogue, EventDef, EventTarget } from '../world/types.js';
import type { SettlementState } from '../state.js';
import type { Phase } from './phase.js';

/**
 * The living world's turn: the GM's injected events, then for each nation
 * (in id order) the rolls its events asked last turn (with its answers), its
 * timed tasks, its follow-ups that are due, its draws from its own dice
 * stream `events:<nation>` (so no order of anyone changes which dice it
 * rolls), and the risk of revolt in its settlements under low Happiness.
 */
export const eventsPhase: Phase = {
  name: 'events',
  run(ctx: TurnContext) {
    const catalogue = ctx.campaign.events;
    // Compels answered this turn come first (docs/rules.md A9): a GM's compel needs no catalogue.
    const answered = answersOf(ctx);
    const scene0 = new EventScene(ctx);
    for (const nation of sortedKeys(ctx.state.nations)) if (ctx.state.nations[nation]?.compels?.length) resolveCompels(ctx, scene0, catalogue, nation, answered.get(nation));
    const injected = ctx.orders.gm.filter((a) => a.kind === 'event');
    if (!catalogue && !injected.length) return;
    const scene = new EventScene(ctx);
    for (const a of injected) {
      if (a.kind !== 'event' || !ctx.state.nations[a.nation]) continue;
      const def = a.oneOff ?? (a.event ? catalogue?.entries[a.event] : undefined);
      if (!def) continue;
      const target = gmTarget(ctx, scene, a.nation, def, a.target);
      if (target) fireEvent(ctx, scene, a.nation, def, target, 'gm');
    }
    if (!catalogue) return;
    const drawn = Object.values(catalogue.entries).filter((d) => d.drawn).sort((a, b) => compareIds(a.id, b.id));
    const answers = answersOf(ctx);
    for (const nation of sortedKeys(ctx.state.nations)) {
      const n = ctx.nationState(nation);
      // A nation holding nothing has fallen (the end phase says so): nothing more befalls it.
      if (!n.alive || ctx.nationDef(nation).rebels || (!scene.settlementsOf(nation).length && !scene.unitsOf(nation).length)) continue;
      resolveRolls(ctx, scene, catalogue, nation, answers.get(nation));
      judgeTasks(ctx, scene, catalogue, nation, answers.get(nation));
      followUps(ctx, scene, catalogue, nation);
      draws(ctx, scene, catalogue, drawn, nation);
      rebellion(ctx, scene, catalogue, nation);
    }
  },
};

function gmTarget(ctx: TurnContext, scene: EventScene, nation: NationId, def: EventDef, named: string | undefined): EventTarget | undefined {
  if (def.scope === 'nation') return { scope: 'nation' };
  if (def.scope === 'hex' && named) return { scope: 'hex', hex: asHexKey(named) };
  const all = scene.targetsOf(nation, def.scope);
  if (!named) return all[0];
  return all.find((t) => t.scope !== 'nation' && t.scope !== 'hex' && t.id === named);
}

function followUps(ctx: TurnContext, scene: EventScene, catalogue: EventCatalogue, nation: NationId): void {
  const n = ctx.nationState(nation);
  const due = takeDue(n, 'followUps', ctx.turn);
  if (!due.length) return;
  for (const f of due) {
    const def = catalogue.entries[f.event];
    const target = targetStands(ctx, nation, f.target);
    if (!def || !target || !def.conditions.every((c) => holds(c, { scene, nation, target }))) continue;
    fireEvent(ctx, scene, nation, def, target, 'follow-up');
  }
}

/**
 * An entry's conditions split once: those about the nation are checked once
 * a draw, those about the place for each of its settlements, units or hexes.
 * An entry that never looks at the place weighs all its places as one group
 * (weight × places), so a unit event of a nation of a hundred units costs
 * one check, not a hundred.
 */
interface Split {
  nationWide: Condition[];
  perPlace: Condition[];
  placeModifiers: boolean;
}

const splits = new WeakMap<EventDef, Split>();

function splitOf(def: EventDef): Split {
  let s = splits.get(def);
  if (!s) {
    s = {
      nationWide: def.conditions.filter((c) => !dependsOnPlace(c)),
      perPlace: def.conditions.filter(dependsOnPlace),
      placeModifiers: def.modifiers.some((m) => dependsOnPlace(m.when)),
    };
    splits.set(def, s);
  }
  return s;
}

type Candidate = { def: EventDef; weight: number } & ({ target: EventTarget } | { group: number; each: number });

function candidatesOf(scene: EventScene, settings: EventCatalogue['settings'], drawn: readonly EventDef[], nation: NationId, skip: (def: EventDef) => boolean): Candidate[] {
  const out: Candidate[] = [];
  const asNation = { scene, nation, target: { scope: 'nation' } as EventTarget };
  for (const def of drawn) {
    if (skip(def)) continue;
    const split = splitOf(def);
    if (!split.nationWide.every((c) => holds(c, asNation))) continue;
    if (!split.perPlace.length && !split.placeModifiers) {
      const count = scene.targetCount(nation, def.scope);
      const each = count ? eventWeight(def, settings, asNation) : 0;
      if (each > 0) out.push({ def, weight: each * count, group: count, each });
      continue;
    }
    for (const target of scene.targetsOf(nation, def.scope)) {
      const where = { scene, nation, target };
      if (!split.perPlace.every((c) => holds(c, where))) continue;
      const weight = eventWeight(def, settings, where);
      if (weight > 0) out.push({ def, target, weight });
    }
  }
  return out;
}

function draws(ctx: TurnContext, scene: EventScene, catalogue: EventCatalogue, drawn: readonly EventDef[], nation: NationId): void {
  const { settings } = catalogue;
  if (!drawn.length || settings.draws <= 0) return;
  const stream = ctx.dice.stream(`events:${nation}`);
  const firedThisTurn = new Set<string>();
  for (let draw = 1; draw <= settings.draws; draw++) {
    const quiet = stream.roll('d100');
    const base = { type: 'event_draw' as const, nations: [] as NationId[], nation, draw, quiet, quietChance: settings.quiet };
    if (quiet.value <= settings.quiet) {
      ctx.emit({ ...base, candidates: 0 });
      continue;
    }
    const history = ctx.nationState(nation).history ?? [];
    const waiting = ctx.nationState(nation).rolls;
    // An event whose roll still awaits the nation's answer is not drawn again until it is rolled.
    const skip = (def: EventDef) => firedThisTurn.has(def.id) || (def.once && history.some((r) => r.event === def.id)) || (waiting?.some((r) => r.event === def.id) ?? false);
    const candidates = candidatesOf(scene, settings, drawn, nation, skip);
    if (!candidates.length) {
      ctx.emit({ ...base, candidates: 0 });
      continue;
    }
    const pick = stream.roll('d100');
    const point = pickPoint(candidates.map((c) => c.weight), pick.value)!;
    const chosen = candidates[point.index]!;
    // Within a group of equal places, the point's position picks the place (in id order).
    const target = 'target' in chosen ? chosen.target : scene.targetsOf(nation, chosen.def.scope)[Math.min(chosen.group - 1, Math.floor(point.into / chosen.each))]!;
    const count = candidates.reduce((n, c) => n + ('group' in c ? c.group : 1), 0);
    ctx.emit({ ...base, pick, event: chosen.def.id, candidates: count });
    firedThisTurn.add(chosen.def.id);
    fireEvent(ctx, scene, nation, chosen.def, target, 'drawn');
  }
}

/** Settlements in the order they risk revolt: captured first, then the newest, then by id; never the capital. */
export function revoltOrder(settlements: readonly SettlementState[]): SettlementState[] {
  return settlements
    .filter((s) => s.level !== 'capital')
    .sort((a, b) => Number(b.captured) - Number(a.captured) || (b.gainedTurn ?? 0) - (a.gainedTurn ?? 0) || compareIds(a.id, b.id));
}

/** At most one settlement of a nation rises a turn; each at risk rolls its own die `revolt:<settlement>`. */
function rebellion(ctx: TurnContext, scene: EventScene, catalogue: EventCatalogue, nation: NationId): void {
  const was = ctx.start.nations[nation];
  if (!was) return;
  const chance = revoltRisk(catalogue.settings.rebellion, was.prosperity, was.happiness);
  if (chance <= 0) return;
  for (const s of revoltOrder(scene.settlementsOf(nation))) {
    if (garrisoned(ctx, s)) continue;
    const roll = ctx.dice.stream(`revolt:${s.id}`).roll('d100');
    const revolted = roll.value <= chance;
    ctx.emit({ type: 'revolt_roll', nations: [nation], nation, settlement: s.id, chance, roll, revolted });
    if (revolted && revolt(ctx, scene, s, `unrest: Happiness ${was.happiness}`)) return;
  }
}
