import { describeEffect } from '../core/world/describe-effect.js';
import { isMilitaryClass, type Bonus, type Campaign, type UnitClass, type UnitType, type Yield } from '../core/campaign.js';
import { perCampaign } from '../core/memo.js';
import { seasonOf } from '../core/phases/upkeep.js';
import type { Indicator, LoggedEvent, Resource } from '../core/events.js';
import { compareIds, type NationId } from '../core/ids.js';
import { GameMap } from '../core/map.js';
import type { BuildState, ExternalState, GameState, NationState, Project } from '../core/state.js';
import { unitCost } from '../core/checks/settlement-orders.js';
import { WorldIndex } from '../core/world-index.js';
import { projectName, WorkIndex, workText } from '../core/work.js';
import type { ReportIndex } from './report-index.js';
import { rated, signed } from './ladder.js';
import type { Namer } from './namer.js';
import type {
  CapView,
  Catalogue,
  ClassRuleView,
  ExternalView,
  GoalView,
  IndicatorLedger,
  Ledger,
  OwnSettlementView,
  OwnUnitView,
  ProjectView,
  QueueItem,
  TurnHeader,
} from './types.js';

/**
 * A nation's own affairs, laid out for reports: ledgers, units, settlements,
 * builds, goals and caps. Used by the nation view for the reader's own nation
 * and by the GM view for every nation; nothing here decides who may see it.
 */

export const DEADLINE_TBA = 'to be announced by the GM';

export const byId = <T extends { id: string }>(a: T, b: T) => compareIds(a.id, b.id);

export function turnHeader(campaign: Campaign, turn: number, deadline: string | undefined): TurnHeader {
  const now = turn >= 1 ? seasonOf(campaign.calendar, turn) : undefined;
  const next = seasonOf(campaign.calendar, turn + 1);
  return {
    campaign: campaign.name,
    title: campaign.title,
    turn,
    when: now ? `${now.season} of ${now.year}` : 'the starting position',
    season: now?.season ?? null,
    year: now?.year ?? null,
    next: { turn: turn + 1, season: next.season, year: next.year, when: `${next.season} of ${next.year}`, deadline: deadline?.trim() ? deadline.trim() : DEADLINE_TBA },
  };
}

export function bonusText(b: Bonus): string {
  const vs = b.vs ? ` vs ${[...(b.vs.classes ?? []), ...(b.vs.affiliation ? [b.vs.affiliation] : [])].join('/')}` : '';
  const where = b.situation ? ` (${b.situation === 'open' ? 'open field' : 'sieges'})` : '';
  return `${signed(b.value)}${vs}${where}${b.label ? ` — ${b.label}` : ''}`;
}

export function yieldText(y: Yield | undefined): string {
  if (!y) return 'nothing';
  const parts = [
    y.renown ? `${signed(y.renown)} Renown` : '',
    y.fate ? `${signed(y.fate)} Fate` : '',
    y.prosperity ? `${signed(y.prosperity)} Prosperity` : '',
    y.happiness ? `${signed(y.happiness)} Happiness` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing';
}

export function ledger(events: readonly LoggedEvent[], nation: NationId, resource: Resource, start: number, end: number): Ledger {
  const items = events.filter((e): e is Extract<LoggedEvent, { type: 'resource' }> => e.type === 'resource' && e.nation === nation && e.resource === resource);
  const income = items.filter((e) => e.delta > 0).map((e) => ({ reason: e.reason, delta: e.delta, signed: signed(e.delta) }));
  const spending = items.filter((e) => e.delta < 0).map((e) => ({ reason: e.reason, delta: e.delta, signed: signed(e.delta) }));
  const sum = (xs: { delta: number }[]) => xs.reduce((s, x) => s + x.delta, 0);
  return { start, income, spending, incomeTotal: sum(income), spendingTotal: sum(spending), end };
}

export function indicatorLedger(events: readonly LoggedEvent[], nation: NationId, indicator: Indicator, start: number, end: number): IndicatorLedger {
  const changes = events
    .filter((e): e is Extract<LoggedEvent, { type: 'indicator' }> => e.type === 'indicator' && e.nation === nation && e.indicator === indicator)
    .map((e) => ({ reason: e.reason, delta: e.delta, signed: signed(e.delta) }));
  return { start: rated(start), changes, end: rated(end) };
}

export function goalsOf(campaign: Campaign, ns: NationState | undefined, nation: NationId): GoalView[] {
  const defs = campaign.nations[nation]?.goals ?? [];
  return defs.map((g) => {
    const p = ns?.goals.find((x) => x.id === g.id);
    const done = p?.done === true;
    const status = done ? `achieved${p?.doneTurn !== undefined ? ` (turn ${p.doneTurn})` : ''}` : g.condition.kind === 'gm' ? 'open — the GM judges it' : 'open';
    const reward = [yieldText(g.reward), ...(g.effects ?? []).map(describeEffect)].filter((x) => x !== 'nothing').join(', ') || 'nothing';
    return { id: g.id, text: g.text, done, doneTurn: p?.doneTurn ?? null, reward, status };
  });
}

/** A project's name as players read it (one definition, in core/work.ts). */
export const describeProject = (campaign: Campaign, p: Project, nation: NationId): string => projectName(campaign, p, nation);

function queueItem(campaign: Campaign, b: BuildState): QueueItem {
  return { build: b.id, kind: b.project.kind, what: describeProject(campaign, b.project, b.nation), turnsLeft: b.turnsLeft, startedTurn: b.startedTurn };
}

/** A unit type's bonuses in words: its class's ("(class)") and its own, made once per campaign, not per unit. */
interface TypeBonusTexts {
  ofClass: readonly string[];
  ofType: readonly string[];
}

const typeBonusTexts = perCampaign(() => new Map<UnitType | undefined, TypeBonusTexts>());

function bonusTextsOf(campaign: Campaign, type: UnitType | undefined): TypeBonusTexts {
  const kept = typeBonusTexts(campaign);
  let texts = kept.get(type);
  if (!texts) {
    texts = { ofClass: (campaign.rules.classBonuses[type?.class ?? 'infantry'] ?? []).map((b) => `${bonusText(b)} (class)`), ofType: (type?.bonuses ?? []).map(bonusText) };
    kept.set(type, texts);
  }
  return texts;
}

export function ownUnits(campaign: Campaign, state: GameState, nation: NationId, names: Namer): OwnUnitView[] {
  const map = GameMap.of(campaign);
  const work = WorkIndex.of(campaign, state);
  return [...WorldIndex.of(campaign, state).unitsOf(nation)]
    .sort(byId)
    .map((u) => {
      const type = campaign.nations[u.nation]?.unitTypes[u.type];
      const texts = bonusTextsOf(campaign, type);
      const ownBonuses = u.extraBonuses?.length ? [...texts.ofType, ...u.extraBonuses.map((b) => `${bonusText(b)} (trained)`)] : [...texts.ofType];
      const bonuses = [...texts.ofClass, ...ownBonuses];
      return {
        id: u.id,
        name: u.name ?? null,
        label: names.unit(u.id),
        type: u.type,
        typeName: type?.name ?? u.type,
        class: type?.class ?? 'unknown',
        hex: u.hex,
        terrain: map.terrainAt(u.hex),
        health: u.health,
        speed: type?.speed ?? 0,
        bonuses,
        ownBonuses,
        aboard: u.aboard ? names.unit(u.aboard) : null,
        besieging: u.besieging ? names.settlement(u.besieging) : null,
        besiegingId: u.besieging ?? null,
        doing: work.workOf(u).map((w) => (w.kind === 'siege' ? `besieging ${names.settlement(w.settlement)}` : workText(w))),
        builtTurn: u.builtTurn ?? null,
      };
    });
}

/** The class rules of the classes the nation's units belong to, in the campaign's order of classes. */
export function classRulesOf(campaign: Campaign, units: readonly OwnUnitView[]): ClassRuleView[] {
  const present = new Set(units.map((u) => u.class));
  return Object.entries(campaign.rules.classBonuses)
    .filter(([cls, list]) => present.has(cls) && list.length > 0)
    .map(([cls, list]) => ({ class: cls, bonuses: list.map(bonusText) }));
}

export function ownSettlements(index: ReportIndex, nation: NationId, names: Namer, besiegers: (id: string) => string[]): OwnSettlementView[] {
  const { campaign } = index;
  const map = GameMap.of(campaign);
  return [...index.world.settlementsOf(nation)]
    .sort(byId)
    .map((s) => ({
      id: s.id,
      name: s.name,
      level: s.level,
      hex: s.hex,
      terrain: map.terrainAt(s.hex),
      home: s.home,
      captured: s.captured,
      structures: [...s.structures].sort(compareIds).map((id) => campaign.structures[id]?.name ?? id),
      structureIds: [...s.structures].sort(compareIds),
      battlements: [...s.battlements].sort((a, b) => a - b).map((b) => `+${b}`),
      queue: index.buildsIn(s.id).map((b) => queueItem(campaign, b)),
      besiegedBy: besiegers(s.id),
    }));
}

/** Work outside settlements: new settlements and external structures under way. */
export function ownProjects(index: ReportIndex, nation: NationId, names: Namer): ProjectView[] {
  const { campaign } = index;
  return index
    .buildsOf(nation)
    .filter((b) => !b.settlement)
    .map((b) => ({ build: b.id, what: describeProject(campaign, b.project, b.nation), at: b.hex, builder: b.builder ? names.unit(b.builder) : null, turnsLeft: b.turnsLeft }));
}

export function externalsOf(campaign: Campaign, externals: readonly ExternalState[], keep: (e: { nation: string; hex: string }) => boolean = () => true): ExternalView[] {
  return externals
    .filter(keep)
    .sort(byId)
    .map((e) => ({ id: e.id, name: campaign.externals[e.type]?.name ?? e.type, nation: e.nation, nationName: campaign.nations[e.nation]?.name ?? e.nation, hex: e.hex }));
}

export function capsOf(index: ReportIndex, nation: NationId): CapView[] {
  const { campaign } = index;
  const def = campaign.nations[nation];
  const military = (type: string) => isMilitaryClass(def?.unitTypes[type]?.class ?? 'infantry');
  // One pass over the nation's units and one over its builds, for both kinds.
  const units = { military: 0, diplomatic: 0 };
  for (const u of index.world.unitsOf(nation)) units[military(u.type) ? 'military' : 'diplomatic']++;
  const building = { military: 0, diplomatic: 0 };
  for (const b of index.buildsOf(nation)) if (b.project.kind === 'unit') building[military(b.project.unitType) ? 'military' : 'diplomatic']++;
  return (['military', 'diplomatic'] as const).map((kind) => {
    const cap = def?.caps[kind] ?? 0;
    return { kind, units: units[kind], building: building[kind], cap, text: `${units[kind]}${building[kind] ? ` (+${building[kind]} in training)` : ''} of ${cap}` };
  });
}


/** What the nation can build: locked unit types and structures appear once an event has unlocked them. */
/** `costChange`: Renown the leader's ability adds to or takes off each build (core/leaders.ts). */
export function catalogueOf(campaign: Campaign, nation: NationId, unlocked: NationState['unlocked'] = {}, costChange: (of: 'unit' | 'structure', cls?: UnitClass) => number = () => 0): Catalogue {
  const def = campaign.nations[nation];
  const rules = campaign.rules;
  const unitTypes = Object.values(def?.unitTypes ?? {})
    .filter((t) => !t.locked || unlocked.unitTypes?.includes(t.id))
    .sort(byId)
    .map((t) => ({
      id: t.id,
      name: t.name,
      class: t.class,
      speed: t.speed,
      cost: Math.max(0, unitCost(campaign, nation, t.id) + costChange('unit', t.class)),
      bonuses: t.bonuses.map(bonusText),
      requires: t.requiresStructure ? (campaign.structures[t.requiresStructure]?.name ?? t.requiresStructure) : null,
    }));
  const structures = Object.values(campaign.structures)
    .filter((st) => !st.locked || unlocked.structures?.includes(st.id))
    .sort(byId)
    .map((s) => {
      const effects = [
        s.grants ? `${bonusText(s.grants.bonus)} to ${s.grants.classes.join('/')} ${s.grants.scope === 'global' ? 'everywhere' : 'built here'}` : '',
        s.onComplete ? `once: ${yieldText(s.onComplete)}` : '',
        s.perTurn ? `each turn: ${yieldText(s.perTurn)}` : '',
        s.taxRelief ? `tax relief ${s.taxRelief}` : '',
        s.extraBuilds ? 'more builds a turn' : '',
      ].filter(Boolean);
      return { id: s.id, name: s.name, cost: Math.max(0, s.cost + costChange('structure')), turns: s.turns, effect: effects.join('; ') || '—' };
    });
  const externals = Object.values(campaign.externals)
    .sort(byId)
    .map((e) => {
      const effects = [e.requiresResource ? `needs ${e.requiresResource}` : '', e.onComplete ? `once: ${yieldText(e.onComplete)}` : '', e.perTurn ? `each turn: ${yieldText(e.perTurn)}` : ''].filter(Boolean);
      return { id: e.id, name: e.name, cost: e.cost, turns: e.turns, effect: effects.join('; ') || '—' };
    });
  const battlements = Object.entries(rules.battlementCost)
    .map(([level, cost]) => ({ level: Number(level), cost }))
    .sort((a, b) => a.level - b.level);
  return {
    unitTypes,
    structures,
    externals,
    battlements,
    upgrade: { ...rules.upgradeCost },
    newSettlement: rules.newSettlementCost,
    fateTable: rules.fateTable.map((cost, i) => `+${i + 1} for ${cost}`),
  };
}
