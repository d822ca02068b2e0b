import { typeAndName } from '../core/unit-name.js';
import type { Campaign } from '../core/campaign.js';
import { asHexKey, compareIds, type HexKey, type NationId } from '../core/ids.js';
import { GameMap, type Reach } from '../core/map.js';
import { pushTo } from '../core/multimap.js';
import { plainText } from '../text/escape.js';
import { distance, mayTake } from '../core/world/action-target.js';
import { hexDistance, offsetOf, type Offset } from '../core/hex.js';
import { actionLocks } from '../core/structure-perks.js';
import type { ActionDef } from '../core/world/action-types.js';
import { compareHexes, resourcesByHex } from './map-grid.js';
import type { ExternalView, NationView, OwnSettlementView, OwnUnitView } from './types.js';

/**
 * The order sheet for next turn, as a YAML order file (the format of
 * orders/<turn>/<nation>.yaml) in which every possible order is a commented
 * one-line flow map. A player answers by removing "# " from the lines wanted
 * and editing them; left untouched, the file is a valid sheet with no orders.
 *
 * Built from the nation's view (its own units and settlements, and the
 * foreign ones it sees) plus the campaign's public map and its own catalogue,
 * so it suggests nothing the nation could not know.
 */
const COMMENT_COLUMN = 52;

/** Player-chosen names end up in comments: keep each on its one line (escape.ts), spaced as a comment. */
// Nearly every comment is already one clean line: the test is cheaper than the replacement.
const UNCLEAN = /[^\S ]|  |^ | $/;
const oneLine = (s: string) => {
  const plain = plainText(s);
  return UNCLEAN.test(plain) ? plain.replace(/\s+/g, ' ').trim() : plain;
};
const line = (order: string, why: string) => `  # - ${order.padEnd(COMMENT_COLUMN - 6)} # ${oneLine(why)}`;
const comment = (text: string) => `  # ${oneLine(text)}`;
const yamlString = (s: string) => JSON.stringify(s);

export function renderOrderTemplate(view: NationView, campaign: Campaign): string {
  const me = view.nation.id as NationId;
  const map = GameMap.of(campaign);
  const ports = new Set<HexKey>(view.settlements.filter((s) => map.isCoast(asHexKey(s.hex))).map((s) => asHexKey(s.hex)));
  const out: string[] = [];
  const next = view.header.next;

  out.push(`# ${oneLine(`Orders for ${view.nation.name}, turn ${next.turn} (${next.when}) — ${view.header.title}`)}`);
  out.push(`# ${oneLine(`Deadline: ${next.deadline}`)}`);
  out.push('#');
  out.push('# Remove the "# " in front of each order you want and edit it. Every other line');
  out.push('# starting with "#" is ignored. A unit takes one order a turn (it moves or acts).');
  out.push('# Orders are paid in the order listed: put the ones you most want first.');
  out.push('# Hexes are written "col,row" in quotes; ids are shown, names work too.');
  out.push('# A unit given no order holds where it is. To pledge Fate in case it is attacked,');
  out.push('# write "- {hold: <unit>, fate: N}".');
  out.push(`# Fate buys a modifier on a roll: ${view.catalogue.fateTable.join(', ')}.`);
  out.push(`# You have ${view.renown.end} Renown and ${view.fate.end} Fate.`);
  out.push(`nation: ${me}`);
  out.push(`turn: ${next.turn}`);
  if (view.units.length) {
    out.push('# Who is lost first when a battle goes badly (optional):');
    out.push(`# casualties: [${view.units.map((u) => u.id).join(', ')}]`);
  }
  out.push('orders:');

  out.push(...answerLines(view));
  if (view.units.length) out.push('  # ——— Units ———');
  const near: Nearby = { units: new HexLists(view.sight.units, map), settlements: new HexLists(view.sight.settlements, map), own: new HexLists(view.settlements, map), structures: structuresByHex(view), reaches: new Map() };
  for (const unit of view.units) {
    out.push('  #');
    out.push(...unitLines(unit, view, campaign, map, ports, near));
  }
  if (view.settlements.length) out.push('  # ——— Settlements ———');
  for (const s of view.settlements) {
    out.push('  #');
    out.push(...settlementLines(s, view, campaign, map));
  }
  out.push(...guardLines(view, campaign));
  out.push('  # ——— To the GM ———');
  out.push(line('{note: "Your message to the GM"}', 'read by the GM only'));
  return out.join('\n') + '\n';
}

/**
 * How the guards meet an agent who fails against the nation (docs/rules.md D2): two lines, only
 * when the nation has settlements or structures to guard and some action of the catalogue has a
 * catch roll.
 */
function guardLines(view: NationView, campaign: Campaign): string[] {
  if (!view.settlements.length && !view.externals.length) return [];
  if (!hasCatch(campaign)) return [];
  return [
    '  # ——— Your guards (a failed spy or saboteur: catch roll) ———',
    line('{hunt_spies: hunt, fate: 1}', 'add Fate to every catch roll this turn (spent only if one comes)'),
    line('{hunt_spies: let go}', 'no catch roll: a failed agent walks free'),
  ];
}

/** Whether some action makes the target roll to catch the actor, worked out once per catalogue. */
const catches = new WeakMap<object, boolean>();
function hasCatch(campaign: Campaign): boolean {
  const catalogue = campaign.actions;
  if (!catalogue) return false;
  let known = catches.get(catalogue);
  if (known === undefined) {
    known = Object.values(catalogue.entries).some((a) => Object.values(a.outcomes).some((o) => o?.target.some((e) => e.kind === 'catch')));
    catches.set(catalogue, known);
  }
  return known;
}

/** The answers awaited this turn: one line per option of each roll asked, one per task met by paying. */
function answerLines(view: NationView): string[] {
  const awaiting = view.awaiting;
  if (!awaiting) return [];
  const out = ['  # ——— Answers (unanswered rolls take the default, with no Fate) ———'];
  for (const r of awaiting.rolls) {
    out.push('  #');
    out.push(comment(`${r.title}: ${r.prompt}`));
    for (const o of r.options) {
      const order = r.choice ? `{answer: ${r.event}, choice: ${o.id}, fate: 0}` : `{answer: ${r.event}, fate: 0}`;
      out.push(line(order, `${r.choice ? `${o.text}: ` : ''}${r.die} + Fate must beat ${o.beatText}${o.isDefault && r.choice ? ' (the default)' : ''}`));
    }
  }
  for (const t of awaiting.tasks) {
    if (!t.answer) continue;
    out.push('  #');
    out.push(line(`{answer: ${t.id}}`, `${t.title}: ${t.what} (${t.left})`));
  }
  return out;
}

/**
 * A list of things on the map, found by hex: each unit's lines ask what
 * stands within its reach, for a hundred units a nation. Each thing's hex is
 * read once, as a hex number; a unit's reach then marks its hexes and the
 * list is checked against the marks (GameMap.covered).
 */
const CANONICAL_HEX = /^(?:0|[1-9][0-9]*),(?:0|[1-9][0-9]*)$/;

class HexLists<T extends { hex: string }> {
  private readonly numbers: Int32Array;

  constructor(
    private readonly items: readonly T[],
    private readonly map: GameMap,
  ) {
    // A hex not written as the map writes its keys ("col,row", no leading zeros) matches nothing, as a key would not.
    this.numbers = Int32Array.from(items, (item) => (CANONICAL_HEX.test(item.hex) ? map.hexNumber(item.hex as HexKey) : -1));
  }

  /** The items standing on hexes the reach covers, in the list's own order. */
  within(reach: Reach): T[] {
    if (this.items.length === 0) return [];
    return this.map.covered(reach, this.numbers).map((i) => this.items[i]!);
  }
}

interface Nearby {
  units: HexLists<NationView['sight']['units'][number]>;
  settlements: HexLists<NationView['sight']['settlements'][number]>;
  own: HexLists<OwnSettlementView>;
  /** External structures, own and in sight, by hex: fought for from their hex or the next (docs/rules.md X1-X2). */
  structures: Map<string, ExternalView[]>;
  /** The sheet's searches by way of moving, speed and hex (a Reach is never changed once made). */
  reaches: Map<string, Reach>;
}

function structuresByHex(view: NationView): Map<string, ExternalView[]> {
  const byHex = new Map<string, ExternalView[]>();
  for (const e of [...view.externals, ...view.sight.externals]) pushTo(byHex, e.hex, e);
  return byHex;
}

function unitLines(unit: OwnUnitView, view: NationView, campaign: Campaign, map: GameMap, ports: ReadonlySet<HexKey>, near: Nearby): string[] {
  const out: string[] = [];
  const type = campaign.nations[view.nation.id as NationId]?.unitTypes[unit.type];
  const military = unit.class !== 'diplomatic';
  const at = asHexKey(unit.hex);
  out.push(comment(`${unit.label} at ${unit.hex} (${unit.terrain}) — ${unit.health}, speed ${unit.speed}${unit.aboard ? `, aboard ${unit.aboard}` : ''}`));
  // Work in progress: moving the unit off gives it up, which the engine refuses without the player's word.
  const busy = unit.doing.length > 0;
  if (busy) out.push(comment(`busy: ${unit.doing.join('; ')}`));
  const naval = unit.class === 'naval';
  // Units stacked on one hex with one speed and way of moving reach the same hexes: one search for them all.
  const reachKey = `${naval ? 'naval' : 'land'} ${unit.speed} ${unit.hex}`;
  let reach = near.reaches.get(reachKey);
  if (!reach) near.reaches.set(reachKey, (reach = map.reach(at, unit.speed, naval ? 'naval' : 'land', naval ? ports : undefined)));
  // What a unit could attack or defend is what stands on the hexes it reaches, in the view's order.
  const inReach = <T extends { hex: string }>(byHex: HexLists<T>): T[] => (unit.aboard === null ? byHex.within(reach) : []);

  // No hold line per unit: holding is what a unit without orders does, said once at the top.
  if (unit.aboard) {
    const shore = map.adjacent(at).filter((h) => map.isLand(h)).sort(compareHexes);
    if (shore[0]) out.push(line(`{move: ${unit.id}, to: "${shore[0]}"}`, `go ashore: ${shore.join(' ')}`));
  } else {
    // The example is the farthest hex (first by column and row among equals: compareHexes' order, read from the
    // hexes' numbers, row * width + col, rather than parsed from their keys at every tie).
    let example: HexKey | undefined;
    let exampleAt = -1;
    let farthest = -1;
    let count = 0;
    const numbers = reach.numbers();
    const width = map.width;
    for (let i = 0; i < reach.size; i++) {
      const hex = reach.keyAt(i);
      const cost = reach.costAt(i);
      if (hex === at) continue;
      count++;
      const n = numbers[i]!;
      if (cost > farthest || (cost === farthest && example !== undefined && ((n % width) - (exampleAt % width) || Math.floor(n / width) - Math.floor(exampleAt / width)) < 0)) {
        example = hex;
        exampleAt = n;
        farthest = cost;
      }
    }
    if (example) out.push(line(`{move: ${unit.id}, to: "${example}"}`, `${count} hexes within ${unit.speed} movement points${busy ? '; it leaves its work: add "abandon: true" to give the work up' : ''}`));
  }
  if (unit.health === 'bloodied') out.push(line(`{rest: ${unit.id}}`, 'rest a turn to heal (not if attacked)'));

  if (military && unit.besiegingId) {
    const target = view.sight.settlements.find((s) => s.id === unit.besiegingId);
    if (target?.battlements.length) {
      const strongest = target.battlements.at(-1);
      out.push(line(`{siege: ${unit.id}, action: destroy battlement ${strongest}}`, `beat the ${strongest} battlement of ${target.name} (of ${target.battlements.join(' ')}); with no bonus named, the weakest; "then: [battlement +1]" says what extra points buy`));
    }
    out.push(line(`{siege: ${unit.id}, action: poison_water}`, `bloody the garrison of ${target?.name ?? unit.besieging}`));
    out.push(line(`{assault: ${unit.id}}`, `storm ${target?.name ?? unit.besieging}; add "support: [ids]" of other besiegers`));
  } else if (military) {
    for (const f of inReach(near.units)) out.push(line(`{attack: ${unit.id}, target: ${f.id}}`, targetText(f)));
    for (const f of inReach(near.settlements)) out.push(line(`{attack: ${unit.id}, target: ${f.id}}`, `lay siege to ${f.name} (${f.nationName}) at ${f.hex}`));
    for (const s of inReach(near.own)) out.push(line(`{defend: ${unit.id}, protect: ${s.id}}`, `join the defence of ${s.name}`));
    if (near.structures.size && !unit.aboard) {
      for (const hex of [at, ...map.adjacent(at)]) {
        for (const e of near.structures.get(hex) ?? []) {
          if (e.nation === view.nation.id) out.push(line(`{defend: ${unit.id}, protect: ${e.id}}`, `join the defence of the ${e.name} at ${e.hex}`));
          else out.push(line(`{attack: ${unit.id}, target: ${e.id}}`, `the ${e.name} of ${e.nationName} at ${e.hex}: infantry takes it; "destroy: true" razes it`));
        }
      }
    }
    const home = view.settlements.find((s) => s.hex === unit.hex);
    if (home) {
      for (const f of view.sight.units.filter((f) => f.hex === unit.hex && f.besieging !== null)) out.push(line(`{sortie: ${unit.id}, target: ${f.id}}`, `sally out of ${home.name} against ${f.label}`));
    }
  }
  if (type?.canFound && map.isLand(at) && !unit.aboard && !view.settlements.some((s) => s.hex === unit.hex) && !view.sight.settlements.some((s) => s.hex === unit.hex)) {
    out.push(line(`{found: ${unit.id}, name: "New Settlement"}`, `found a village here (${view.catalogue.newSettlement} Renown)`));
  }
  for (const ext of [...(type?.canConstruct ?? [])].sort(compareIds)) {
    const e = campaign.externals[ext];
    if (!e) continue;
    const needs = e.requiresResource;
    const here = !needs || (resourcesByHex(campaign).get(unit.hex) ?? []).some((r) => r.kind === needs);
    out.push(line(`{construct: ${unit.id}, structure: ${ext}}`, `${e.name}, ${e.cost} Renown, ${e.turns} turn${e.turns === 1 ? '' : 's'}${needs ? here ? '' : ` — needs ${needs} here` : ''}`));
  }
  if (!unit.aboard) out.push(...actionLines(unit, view, campaign));
  return out;
}

/**
 * A foreign unit as an attack line's comment: the order beside it already names its id, so the
 * comment says what it is, whose, where, and whether it is bloodied (an easier target).
 */
function targetText(f: NationView['sight']['units'][number]): string {
  return `${typeAndName(f.typeName, f.name)} of ${f.nationName} at ${f.hex}${f.health === 'bloodied' ? ', bloodied' : ''}`;
}

/** At most this many targets suggested per action, nearest first: the sheet is a reminder, not a list of the world. */
const ACTION_TARGETS_SHOWN = 3;

/**
 * The actions the unit may take (actions.yaml) on what the nation sees within
 * their range: its own settlements and those in sight (a nation by its
 * nearest one). Routes pair a settlement the unit stands by with the nearest
 * others within the route's length.
 */
function actionLines(unit: OwnUnitView, view: NationView, campaign: Campaign): string[] {
  const actions = actionsOf(campaign, unit.class, unit.type);
  if (!actions.length) return [];
  const me = view.nation.id;
  const reach = Math.max(...actions.map((a) => a.range));
  // Each place's distance once per unit; only places within the farthest action's range are kept.
  const places = placesOf(view);
  const from = offsetOf(asHexKey(unit.hex));
  const near = places
    .map(({ p, at }) => ({ p, at, d: hexDistance(from, at) }))
    .filter((x) => x.d <= reach)
    .sort((x, y) => x.d - y.d || compareIds(x.p.id, y.p.id));
  const structures = actions.some((a) => a.targets.includes('structure')) ? [...view.externals, ...view.sight.externals] : [];
  if (!near.length && !structures.length) return [];
  const out: string[] = [];
  for (const a of actions) {
    if (!unlockedFor(view, campaign, a.id)) continue;
    const roll = a.roll ? `d6 + Fate to beat ${a.roll.beat}` : 'no roll';
    const fits = (nation: string) => a.whose === 'any' || (a.whose === 'own') === (nation === me);
    if (a.targets.includes('route')) {
      const first = near.find((x) => x.p.nation === me && x.d <= a.range);
      if (!first) continue;
      const end = first.p;
      const others = places
        .filter(({ p }) => p.id !== end.id)
        .map(({ p, at }) => ({ p, d: hexDistance(first.at, at) }))
        .filter((x) => x.d <= a.length)
        .sort((x, y) => x.d - y.d || compareIds(x.p.id, y.p.id));
      for (const { p: other } of others.slice(0, ACTION_TARGETS_SHOWN)) {
        const consent = other.nation === me ? '' : `; ${other.nationName} must write "accept trade with ${view.nation.name}"`;
        out.push(line(`{act: ${unit.id}, action: ${a.id}, target: [${end.id}, ${other.id}]}`, `${a.name}: ${end.name} – ${other.name}${a.income ? `, ${a.income} Renown a turn each` : ''}${consent}`));
      }
      continue;
    }
    const shown = new Set<string>();
    if (a.targets.includes('structure')) {
      // A mine or dig site within range (a mortar's bombardment), nearest first.
      const inRange = structures
        .map((e) => ({ e, d: distance(asHexKey(unit.hex), asHexKey(e.hex)) }))
        .filter((x) => x.d <= a.range && fits(x.e.nation))
        .sort((x, y) => x.d - y.d || compareIds(x.e.id, y.e.id));
      for (const { e } of inRange.slice(0, ACTION_TARGETS_SHOWN)) {
        out.push(line(`{act: ${unit.id}, action: ${a.id}, target: ${e.id}}`, `${a.name} on the ${e.name} at ${e.hex}${e.nation === me ? '' : ` (${e.nationName})`}: ${roll}`));
      }
    }
    for (const { p, d } of near) {
      if (shown.size >= ACTION_TARGETS_SHOWN) break;
      if (d > a.range || !fits(p.nation)) continue;
      if (a.targets.includes('settlement')) {
        shown.add(p.id);
        out.push(line(`{act: ${unit.id}, action: ${a.id}, target: ${p.id}}`, `${a.name} in ${p.name}${p.nation === me ? '' : ` (${p.nationName})`}: ${roll}`));
      } else if (a.targets.includes('nation') && !shown.has(p.nation)) {
        shown.add(p.nation);
        out.push(line(`{act: ${unit.id}, action: ${a.id}, target: ${p.nation}}`, `${a.name} against ${p.nationName}: ${roll}`));
      }
    }
  }
  return out;
}

/** A place an action may target, with its hex read once. */
interface Place {
  p: { id: string; name: string; hex: string; nation: string; nationName: string };
  at: Offset;
}

/** The nation's own settlements and those in sight, each hex read once per sheet rather than once per unit. */
const placesByView = new WeakMap<NationView, Place[]>();
function placesOf(view: NationView): Place[] {
  let places = placesByView.get(view);
  if (!places) {
    const me = view.nation.id;
    const list = [...view.settlements.map((s) => ({ id: s.id, name: s.name, hex: s.hex, nation: me, nationName: view.nation.name })), ...view.sight.settlements];
    placesByView.set(view, (places = list.map((p) => ({ p, at: offsetOf(asHexKey(p.hex)) }))));
  }
  return places;
}

/** An action some structure unlocks (docs/rules.md X6) is suggested only to a nation holding one of those structures. */
function unlockedFor(view: NationView, campaign: Campaign, action: string): boolean {
  const lock = actionLocks(campaign).get(action);
  if (!lock) return true;
  if (view.settlements.some((s) => s.structureIds.some((id) => lock.structures.includes(id)))) return true;
  const names = new Set(lock.externals.map((id) => campaign.externals[id]?.name ?? id));
  return view.externals.some((e) => names.has(e.name));
}

/** The actions a unit type may take, in id order, worked out once per campaign and type. */
const actionsByType = new WeakMap<object, Map<string, ActionDef[]>>();
function actionsOf(campaign: Campaign, unitClass: string, unitType: string): ActionDef[] {
  const catalogue = campaign.actions;
  if (!catalogue) return [];
  let byType = actionsByType.get(catalogue);
  if (!byType) actionsByType.set(catalogue, (byType = new Map<string, ActionDef[]>()));
  const key = `${unitClass}|${unitType}`;
  let list = byType.get(key);
  if (!list) byType.set(key, (list = Object.values(catalogue.entries).filter((a) => mayTake(a, unitClass, unitType)).sort((x, y) => compareIds(x.id, y.id))));
  return list;
}

function settlementLines(s: OwnSettlementView, view: NationView, campaign: Campaign, map: GameMap): string[] {
  const out: string[] = [];
  const queue = s.queue.length ? `; under way: ${s.queue.map((q) => `${q.what} (${q.turnsLeft} turn${q.turnsLeft === 1 ? '' : 's'} left)`).join(', ')}` : '';
  out.push(comment(`${s.name} (${s.id}), ${s.level} at ${s.hex}${s.structures.length ? ` — ${s.structures.join(', ')}` : ''}${s.battlements.length ? `; battlements ${s.battlements.join(' ')}` : ''}${queue}`));
  const coast = map.isCoast(asHexKey(s.hex));
  for (const t of view.catalogue.unitTypes) {
    const type = campaign.nations[view.nation.id as NationId]?.unitTypes[t.id];
    if (t.class === 'naval' && !coast) continue;
    if (type?.requiresStructure && (!s.home || !s.structureIds.includes(type.requiresStructure))) continue;
    const cap = view.caps.find((c) => c.kind === (t.class === 'diplomatic' ? 'diplomatic' : 'military'));
    const full = cap && cap.units + cap.building >= cap.cap ? ` — at your ${cap.kind} cap (${cap.text})` : '';
    out.push(line(`{build: ${s.id}, unit: ${t.id}, name: ${yamlString(`New ${t.name}`)}}`, `${t.name}, ${t.cost} Renown, ready next turn${full}`));
  }
  for (const st of view.catalogue.structures) {
    if (s.structureIds.includes(st.id) || s.queue.some((q) => q.kind === 'structure' && q.what === st.name)) continue;
    out.push(line(`{build: ${s.id}, structure: ${st.id}}`, `${st.name}, ${st.cost} Renown, ${st.turns} turn${st.turns === 1 ? '' : 's'}: ${st.effect}`));
  }
  if (s.battlements.length < campaign.rules.maxBattlements && !s.queue.some((q) => q.kind === 'battlement')) {
    for (const b of view.catalogue.battlements) out.push(line(`{build: ${s.id}, battlement: ${b.level}}`, `+${b.level} battlement, ${b.cost} Renown`));
  }
  if ((s.level === 'village' || s.level === 'town') && !s.queue.some((q) => q.kind === 'upgrade')) {
    const to = s.level === 'village' ? 'town' : 'city';
    out.push(line(`{upgrade: ${s.id}}`, `grow into a ${to}, ${view.catalogue.upgrade[to]} Renown`));
  }
  return out;
}
