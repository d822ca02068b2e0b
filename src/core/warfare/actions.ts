import { signed } from '../ladder.js';
import { CONSEQUENCE_SOAKS, soakStress, type ConsequenceLevel } from '../fate/stress.js';
import { cmdSkill, noviceStepsUp, standingRampart, unitName, unitsOf, unitSkill, type WarEvent, type WarState } from './state.js';
import { other, type Commander, type CommanderSkill, type Unit, type UnitSkill } from './types.js';

/** A draw or total as the seed writes it: +0 for zero. */
const sgn = (n: number) => (n === 0 ? '+0' : signed(n));

/**
 * The Warfare actions (seed 001 lines 158–191; docs/rules.md W5–W11). Each is
 * one overcome roll per group of units: a card for each side, added to the
 * group's summed skill and to the defending unit's Armor.
 */

/** What the attacker does on a tie (line 161): give the other side a minor advantage, take a stress card, or let it fail. */
export type OnTie = 'boost' | 'stress' | 'fail';

export interface Group {
  target: string;
  attackers: string[];
}

const log = (st: WarState, e: Omit<WarEvent, 'exchange'>) => st.log.push({ exchange: st.exchange, ...e });
const unit = (st: WarState, id: string): Unit => st.units.find((u) => u.id === id)!;

/**
 * One opposed roll: attack = skill + card, defence = skill + card. A side
 * behind may spend a minor advantage to draw again (line 173) — the attacker
 * when failing, the defender when the attack would succeed — and the attacker
 * spends free invokes of its side's advantages on the target's zone, +2 each
 * (seed 000 lines 51–62), while it is not ahead; then the defence spends its
 * own side's there while the attack would still succeed. Returns the shifts.
 */
export function opposed(st: WarState, att: Commander, def: Commander, attSkill: number, defSkill: number, zone: string): { shifts: number; words: string } {
  let a = st.draws.draw(att.side);
  let d = st.draws.draw(def.side);
  const words: string[] = [`drew ${sgn(a)} against ${sgn(d)}`];
  if (attSkill + a <= defSkill + d && att.boosts > 0) {
    att.boosts--;
    a = st.draws.draw(att.side);
    words.push(`spent a minor advantage and drew again: ${sgn(a)}`);
  } else if (attSkill + a > defSkill + d && def.boosts > 0) {
    def.boosts--;
    d = st.draws.draw(def.side);
    words.push(`the defence spent a minor advantage and drew again: ${sgn(d)}`);
  }
  let bonus = 0;
  let guard = 0;
  const z = st.field.zones.find((x) => x.id === zone);
  for (const adv of z?.advantages ?? []) {
    while (adv.side === att.side && adv.invokes > 0 && attSkill + a + bonus <= defSkill + d) {
      adv.invokes--;
      bonus += 2;
      words.push(`invoked ${adv.name} for +2`);
    }
  }
  // Then the defence answers with its own side's free invokes on its zone, while the attack would still succeed.
  for (const adv of z?.advantages ?? []) {
    while (adv.side === def.side && adv.invokes > 0 && attSkill + a + bonus >= defSkill + d + guard) {
      adv.invokes--;
      guard += 2;
      words.push(`the defence invoked ${adv.name} for +2`);
    }
  }
  const attack = attSkill + a + bonus;
  const defence = defSkill + d + guard;
  words.push(`${sgn(attack)} vs ${sgn(defence)}`);
  return { shifts: attack - defence, words: words.join('; ') };
}

/**
 * The overcome outcome (lines 161, 169): success takes the unit out; a tie
 * succeeds at a cost the attacker chooses; three shifts or more either way
 * is success with style and a minor advantage for that side.
 */
function settle(st: WarState, att: Commander, def: Commander, shifts: number, onTie: OnTie): { success: boolean; words: string } {
  if (shifts >= 3) {
    att.boosts++;
    return { success: true, words: 'success with style, a minor advantage' };
  }
  if (shifts > 0) return { success: true, words: 'success' };
  if (shifts <= -3) {
    def.boosts++;
    return { success: false, words: 'failure; the defence succeeds with style, a minor advantage to it' };
  }
  if (shifts < 0) return { success: false, words: 'failure' };
  if (onTie === 'boost') {
    def.boosts++;
    return { success: true, words: 'a tie, bought with a minor advantage to the other side' };
  }
  if (onTie === 'stress') {
    const w = applyStressCard(st, att);
    return { success: true, words: `a tie, bought with a stress card (${w})` };
  }
  return { success: false, words: 'a tie, left as a failure' };
}

/** Applies one stress card to a commander (seed 000 lines 136–144); taken out, a novice steps up (seed 001 line 12). */
export function applyStressCard(st: WarState, c: Commander): string {
  const card = st.draws.stressCard(c.side);
  let out = false;
  for (const track of ['physical', 'mental'] as const) {
    const stress = card[track];
    if (stress <= 0) continue;
    const soaked = soakStress({ boxes: c.filled[track], taken: c.taken }, stress);
    if (soaked.takenOut) out = true;
    else {
      c.filled[track] = soaked.track.boxes;
      c.taken = soaked.track.taken;
    }
  }
  const words = `${card.physical} physical, ${card.mental} mental`;
  if (!out) return words;
  const was = c.name;
  noviceStepsUp(c);
  log(st, { kind: 'novice', side: c.side, commander: c.id, text: `${was} is taken out; ${c.name} takes command` });
  return `${words}; taken out`;
}

/** Groups as the attacker allocated them, each checked against the rules before any card is drawn (line 167). */
function checkGroups(st: WarState, att: Commander, def: Commander, groups: Group[]): string | undefined {
  const mine = new Set(unitsOf(st, att).map((u) => u.id));
  const theirs = new Set(unitsOf(st, def).map((u) => u.id));
  const used = new Set<string>();
  for (const g of groups) {
    if (!theirs.has(g.target)) return `${g.target} is not a unit of ${def.name} in the battle`;
    for (const a of g.attackers) {
      if (!mine.has(a)) return `${a} is not a unit of ${att.name} in the battle`;
      if (used.has(a)) return `${a} is allocated twice`;
      used.add(a);
    }
  }
  return undefined;
}

function resolveGroups(st: WarState, kind: 'ranged' | 'clash' | 'outflank', att: Commander, def: Commander, groups: Group[], skillOf: (u: Unit) => number, distance: number, onTie: OnTie): void {
  for (const g of groups) {
    const target = unit(st, g.target);
    if (target.out) continue;
    const attackers = g.attackers.map((id) => unit(st, id)).filter((u) => !u.out);
    if (!attackers.length) continue;
    const sum = attackers.reduce((s, u) => s + skillOf(u), 0);
    const armor = unitSkill(st, target, 'armor');
    const { shifts, words } = opposed(st, att, def, sum - distance, armor, def.zone);
    const result = settle(st, att, def, shifts, onTie);
    if (result.success) target.out = true;
    const range = distance ? ` − ${distance} for range` : '';
    log(st, {
      kind,
      side: att.side,
      commander: att.id,
      text: `${attackers.map((u) => unitName(st, u)).join(', ')} (${sgn(sum)}${range}) against ${unitName(st, target)} (Armor ${sgn(armor)}): ${words}; ${result.words}${result.success ? `; ${unitName(st, target)} is taken out` : ''}`,
    });
  }
}

/** The units of a commander that can fire now, and the skill each fires with (lines 23–25, 36–37, 46). */
export function shooters(st: WarState, c: Commander): { unit: Unit; skill: UnitSkill; range: number }[] {
  const enemyHere = st.commanders.some((e) => e.side !== c.side && !e.gone && e.zone === c.zone && unitsOf(st, e).length > 0);
  return unitsOf(st, c).flatMap((u) => {
    const r = st.catalogue.units[u.type]!.stunts.ranged;
    if (!r) return [];
    if (enemyHere && st.catalogue.units[u.type]!.stunts.pinned) return [];
    return [{ unit: u, skill: r.skill, range: r.maxRange }];
  });
}

/**
 * Ranged attack (lines 158–162): a defending commander within range; each
 * group's summed ranged skill, less the distance, against the target's
 * Armor. Not into a zone whose ramparts stand (line 89). Afterwards, if the
 * attacker has units in the defending commander's zone, that commander gains
 * a minor advantage (line 162). Returns a refusal, or undefined when done.
 */
export function rangedAttack(st: WarState, att: Commander, def: Commander, groups: Group[], onTie: OnTie = 'boost'): string | undefined {
  const bad = checkGroups(st, att, def, groups);
  if (bad) return bad;
  if (standingRampart(st, def.zone)) return `${def.name} is behind ramparts that still stand`;
  const distance = st.distance(att.zone, def.zone);
  const can = new Map(shooters(st, att).map((s) => [s.unit.id, s]));
  for (const g of groups) {
    for (const a of g.attackers) {
      const s = can.get(a);
      if (!s) return `${a} cannot make a ranged attack now`;
      if (distance > s.range) return `${a} reaches ${s.range} zones; ${def.name} is ${distance} away`;
    }
  }
  resolveGroups(st, 'ranged', att, def, groups, (u) => unitSkill(st, u, can.get(u.id)!.skill), distance, onTie);
  const engaged = st.commanders.some((c) => c.side === att.side && !c.gone && c.zone === def.zone && unitsOf(st, c).length > 0);
  if (engaged) {
    def.boosts++;
    log(st, { kind: 'ranged', side: def.side, commander: def.id, text: `fire into a zone where ${att.side === 'attacker' ? 'the attackers' : 'the defenders'} are engaged: ${def.name} gains a minor advantage` });
  }
  return undefined;
}

/**
 * Clash of arms (lines 166–169): a defending commander in the same zone; each
 * group's summed Fighting against the target's Armor. Then the defender may
 * outflank (lines 174–175).
 */
export function clashOfArms(st: WarState, att: Commander, def: Commander, groups: Group[], counter: (def: Commander, att: Commander) => Group[], onTie: OnTie = 'boost'): string | undefined {
  const bad = checkGroups(st, att, def, groups);
  if (bad) return bad;
  if (att.zone !== def.zone) return `${def.name} is not in the same zone`;
  resolveGroups(st, 'clash', att, def, groups, (u) => unitSkill(st, u, 'fighting'), 0, onTie);
  outflank(st, att, def, counter);
  return undefined;
}

/**
 * Outflank (lines 174–175): opposed Tactics, an overcome by the defender;
 * on success its surviving units attack at once (not its action). The
 * counter-attack is a clash of arms without a further outflank.
 */
export function outflank(st: WarState, att: Commander, def: Commander, counter: (def: Commander, att: Commander) => Group[]): void {
  if (!unitsOf(st, def).length || !unitsOf(st, att).length) return;
  const d = st.draws.draw(def.side);
  const a = st.draws.draw(att.side);
  const dt = cmdSkill(def, 'tactics') + d;
  const at = cmdSkill(att, 'tactics') + a;
  const won = dt > at;
  log(st, { kind: 'outflank', side: def.side, commander: def.id, text: `${def.name} tries to outflank: Tactics ${sgn(cmdSkill(def, 'tactics'))} drew ${sgn(d)} = ${sgn(dt)} against ${sgn(cmdSkill(att, 'tactics'))} drew ${sgn(a)} = ${sgn(at)}: ${won ? 'outflanked, the survivors strike back' : 'no'}` });
  if (!won) return;
  const groups = counter(def, att);
  if (checkGroups(st, def, att, groups)) return;
  resolveGroups(st, 'outflank', def, att, groups, (u) => unitSkill(st, u, 'fighting'), 0, 'boost');
}

/**
 * A siege attack on ramparts (lines 89–91, 99, 108): units with Siege
 * Weapon, summed Siege less the distance, against the rampart's Armor; the
 * shifts are stress on its Wall Strength, capped by the group's Siege (seed
 * 000: capped by the rank of the skill used). Taken out, it falls.
 */
export function siegeAttack(st: WarState, att: Commander, zone: string, unitIds: string[]): string | undefined {
  const rampart = standingRampart(st, zone);
  if (!rampart) return `no standing ramparts in ${zone}`;
  const type = st.catalogue.ramparts[rampart.type]!;
  const distance = st.distance(att.zone, zone);
  const can = new Map(shooters(st, att).map((s) => [s.unit.id, s]));
  const group = unitIds.map((id) => unit(st, id));
  for (const u of group) {
    const s = can.get(u.id);
    if (!s || !st.catalogue.units[u.type]!.stunts.breaches) return `${u.id} cannot harm ramparts`;
    if (distance > s.range) return `${u.id} reaches ${s.range} zones; the ramparts are ${distance} away`;
  }
  const sum = group.reduce((s, u) => s + unitSkill(st, u, can.get(u.id)!.skill), 0);
  const a = st.draws.draw(att.side);
  const d = st.draws.draw(other(att.side));
  const shifts = sum - distance + a - (type.armor + d);
  let text = `${group.map((u) => unitName(st, u)).join(', ')} (Siege ${sgn(sum)}${distance ? ` − ${distance} for range` : ''}) against the ${type.name} (Armor ${sgn(type.armor)}): drew ${sgn(a)} against ${sgn(d)}; `;
  if (shifts <= 0) text += 'no harm to the walls';
  else {
    const stress = Math.min(shifts, Math.max(1, sum));
    const levels = (Object.keys(CONSEQUENCE_SOAKS) as ConsequenceLevel[]).filter((l) => !type.consequences.includes(CONSEQUENCE_SOAKS[l]));
    const soaked = soakStress({ boxes: rampart.boxes, taken: [...levels, ...rampart.taken.map(levelOf)] }, stress);
    if (soaked.takenOut) {
      rampart.fallen = true;
      text += `${stress} stress: the ${type.name} falls`;
    } else {
      rampart.boxes = soaked.track.boxes;
      rampart.taken.push(...soaked.consequences.map((l) => CONSEQUENCE_SOAKS[l]));
      const parts = [soaked.box ? `wall box ${soaked.box}` : '', ...soaked.consequences.map((l) => `a -${CONSEQUENCE_SOAKS[l]} consequence`)].filter(Boolean);
      text += `${stress} stress: ${parts.join(' and ')}`;
    }
  }
  log(st, { kind: 'siege', side: att.side, commander: att.id, text });
  return undefined;
}

const levelOf = (soak: number): ConsequenceLevel => (soak <= 2 ? 'mild' : soak <= 4 ? 'moderate' : 'severe');

/**
 * Create a minor advantage with units' skill (lines 183–185): the best unit's
 * skill, +1 for each other unit with the skill, against a passive opposition
 * of the distance to the zone. Tie: a minor advantage (boost); success: the
 * aspect on the zone with one free invoke; with style, two (seed 002).
 */
export function createAdvantage(st: WarState, c: Commander, unitIds: string[], skill: UnitSkill, zone: string, name: string): string | undefined {
  const group = unitIds.map((id) => unit(st, id));
  if (group.some((u) => u.commander !== c.id || u.out)) return `every unit must be ${c.name}'s and in the battle`;
  const skills = group.map((u) => unitSkill(st, u, skill)).sort((x, y) => y - x);
  const best = skills[0] ?? 0;
  const helpers = skills.slice(1).filter((s) => s > 0).length;
  advantageRoll(st, c, { best, helpers, units: group.length }, skill, zone, name);
  return undefined;
}

/** A commander or champion creates an advantage with a skill of its own (line 184), no units helping. */
export function createAdvantageInPerson(st: WarState, c: Commander, skill: CommanderSkill, zone: string, name: string): void {
  advantageRoll(st, c, { best: cmdSkill(c, skill), helpers: 0, units: 0 }, skill, zone, name);
}

function advantageRoll(st: WarState, c: Commander, by: { best: number; helpers: number; units: number }, skill: string, zone: string, name: string): void {
  const { best, helpers } = by;
  const opposition = st.distance(c.zone, zone);
  const draw = st.draws.draw(c.side);
  const total = draw + best + helpers;
  const shifts = total - opposition;
  let result: string;
  if (shifts < 0) result = 'failure';
  else if (shifts === 0) {
    c.boosts++;
    result = 'a tie: a minor advantage';
  } else {
    const invokes = shifts >= 3 ? 2 : 1;
    // Made again where it stands, the aspect gains the free invokes (seed 000: an advantage on an existing aspect).
    const advantages = st.field.zones.find((z) => z.id === zone)!.advantages;
    const same = advantages.find((a) => a.name === name && a.side === c.side);
    if (same) same.invokes += invokes;
    else advantages.push({ name, side: c.side, invokes });
    result = `${shifts >= 3 ? 'success with style' : 'success'}: ${name} on ${zone} with ${invokes} free invoke${invokes > 1 ? 's' : ''}`;
  }
  const how = by.units ? `with ${by.units} unit(s): drew ${sgn(draw)} + ${skill} ${sgn(best)} + ${helpers} helping` : `in person: drew ${sgn(draw)} + ${skill} ${sgn(best)}`;
  log(st, { kind: 'advantage', side: c.side, commander: c.id, text: `${c.name} creates an advantage ${how} = ${sgn(total)} against ${sgn(opposition)}: ${result}` });
}


/**
 * A commander attacks an enemy commander in its zone in person (lines 181,
 * 189–191): Fighting and a card against Fighting and a card, as an attack
 * (seed 000 lines 124–130). Success: stress equal to the shifts, capped by
 * the attacker's Fighting (at least one, as the siege cap), soaked by the
 * physical track and consequences; taken out, a novice steps up. A tie is a
 * boost to the attacker; failing by three, the defender's style, a boost to it.
 */
export function attackCommander(st: WarState, att: Commander, def: Commander): string | undefined {
  if (att.zone !== def.zone) return `${def.name} is not in the same zone`;
  if (def.novice) return `${def.name} is a novice, with no stress to take`;
  const af = cmdSkill(att, 'fighting');
  const df = cmdSkill(def, 'fighting');
  const a = st.draws.draw(att.side);
  const d = st.draws.draw(def.side);
  const shifts = af + a - (df + d);
  let result: string;
  let takenOut = false;
  if (shifts > 0) {
    const stress = Math.min(shifts, Math.max(1, af));
    const soaked = soakStress({ boxes: def.filled.physical, taken: def.taken }, stress);
    if (soaked.takenOut) {
      takenOut = true;
      result = `${stress} physical stress: ${def.name} is taken out`;
    } else {
      def.filled.physical = soaked.track.boxes;
      def.taken = soaked.track.taken;
      const parts = [soaked.box ? `box ${soaked.box}` : '', ...soaked.consequences.map((l) => `a -${CONSEQUENCE_SOAKS[l]} consequence`)].filter(Boolean);
      result = `${stress} physical stress (${parts.join(' and ')})`;
    }
    if (shifts >= 3) att.boosts++;
  } else if (shifts === 0) {
    att.boosts++;
    result = 'a tie: a minor advantage';
  } else {
    if (shifts <= -3) def.boosts++;
    result = shifts <= -3 ? 'failure; the defence succeeds with style, a minor advantage to it' : 'failure';
  }
  log(st, { kind: 'heroic', side: att.side, commander: att.id, text: `${att.name} attacks ${def.name} in person: Fighting ${sgn(af)} drew ${sgn(a)} against Fighting ${sgn(df)} drew ${sgn(d)}: ${result}` });
  if (takenOut && def.champion) {
    // A champion commands nothing: no novice steps up for it.
    def.out = true;
    log(st, { kind: 'novice', side: def.side, commander: def.id, text: `${def.name} is taken out of the battle` });
  } else if (takenOut) {
    const was = def.name;
    noviceStepsUp(def);
    log(st, { kind: 'novice', side: def.side, commander: def.id, text: `${was} is taken out; ${def.name} takes command` });
  }
  return undefined;
}
