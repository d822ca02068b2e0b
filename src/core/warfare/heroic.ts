import { TEAMWORK_CAP } from '../aspects/invoke.js';
import { CONSEQUENCE_SOAKS, soakStress } from '../fate/stress.js';
import { applyStressCard, opposed, tellFall } from './actions.js';
import { improve, type CheckSide } from './invokes.js';
import { capital, cmdSkill, logWar as log, noviceStepsUp, sgn, sideName, takeConsequence, unitSkill, zoneName, type WarState } from './state.js';
import { other, type Commander, type CommanderSkill, type Side, type Unit, type UnitSkill } from './types.js';

/**
 * The heroic actions (seed 001 lines 181–191; docs/rules.md W11, W13, W19,
 * W22): a commander or champion that has not acted creates a minor
 * advantage, overcomes an aspect, or attacks an enemy commander directly.
 */

const unit = (st: WarState, id: string): Unit => st.units.find((u) => u.id === id)!;


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

/**
 * Other nations' teamwork and obstacle invokes on the side's first check
 * against a passive opposition (docs/rules.md A10): teamwork +2 each while
 * the help on the check stays within `room` (the cap, less what its units
 * add), obstacles +2 each to the opposition. Taken once: later checks get none.
 */
const NO_HELP = { team: 0, obstacle: 0, teamText: '', obstacleText: '', story: '' };

function passiveHelp(st: WarState, side: Side, room: number): { team: number; obstacle: number; teamText: string; obstacleText: string; story: string } {
  const waiting = st.help[side];
  if (!waiting.length) return NO_HELP;
  st.help[side] = [];
  let team = 0;
  let obstacle = 0;
  const helpers: string[] = [];
  const hinderers: string[] = [];
  for (const h of waiting) {
    const value = h.role === 'team' ? Math.max(0, Math.min(2, room - team)) : 2;
    // Past the cap a teamwork invoke adds nothing: not made (value 0), nothing spent.
    st.helped.push({ id: h.id, value });
    if (!value) continue;
    if (h.role === 'team') {
      team += value;
      helpers.push(`${h.by}: ${h.name}`);
    } else {
      obstacle += value;
      hinderers.push(`${h.by}: ${h.name}`);
    }
  }
  const by = (list: string[]) => [...new Set(list.map((x) => x.slice(0, x.indexOf(':'))))].join(' and ');
  return {
    team,
    obstacle,
    teamText: team ? ` + ${team} teamwork (${helpers.join('; ')})` : '',
    obstacleText: obstacle ? ` + ${obstacle} as an obstacle (${hinderers.join('; ')})` : '',
    story: [helpers.length ? `${by(helpers)} lent a hand.` : '', hinderers.length ? `${by(hinderers)} stood in the way.` : ''].filter(Boolean).join(' '),
  };
}

function advantageRoll(st: WarState, c: Commander, by: { best: number; helpers: number; units: number }, skill: string, zone: string, name: string): void {
  const { best } = by;
  // Teamwork: each helper adds one, at most +3 (seed 002 "Teamwork"); other nations' teamwork invokes count in the same +3.
  const helpers = Math.min(by.helpers, TEAMWORK_CAP);
  const help = passiveHelp(st, c.side, TEAMWORK_CAP - helpers);
  const distance = st.distance(c.zone, zone);
  const opposition = distance + help.obstacle;
  const draw = st.draws.draw(c.side);
  const total = draw + best + helpers + help.team;
  const shifts = total - opposition;
  let result: string;
  const advantages = st.field.zones.find((z) => z.id === zone)!.advantages;
  /** Adds free invokes to the side's aspect of that name there, or brings it into play; the free invokes it now holds. */
  const add = (side: Side, invokes: number): number => {
    // Made again where it stands, the aspect gains the free invokes (seed 000: an advantage on an existing aspect).
    const same = advantages.find((a) => a.name === name && a.side === side);
    if (same) return (same.invokes += invokes);
    advantages.push({ name, side, invokes });
    return invokes;
  };
  if (shifts < 0) {
    // A failure still brings the aspect into play, its free invoke the other side's (seed 000 line 107; seed 002).
    const side = other(c.side);
    const held = add(side, 1);
    result = `failure: ${name} on ${zone} ${held > 1 ? `gains 1 free invoke for the ${side}s, ${held} in all` : `with 1 free invoke for the ${side}s`}`;
  } else if (shifts === 0) {
    c.boosts++;
    result = 'a tie: a minor advantage';
  } else {
    const invokes = shifts >= 3 ? 2 : 1;
    const held = add(c.side, invokes);
    const got = `${invokes} free invoke${invokes > 1 ? 's' : ''}`;
    result = `${shifts >= 3 ? 'success with style' : 'success'}: ${name} on ${zone} ${held > invokes ? `gains ${got}, ${held} in all` : `with ${got}`}`;
  }
  const how = (by.units ? `with ${by.units} unit(s): drew ${sgn(draw)} + ${skill} ${sgn(best)} + ${helpers} helping` : `in person: drew ${sgn(draw)} + ${skill} ${sgn(best)}`) + help.teamText;
  const against = help.obstacle ? `${sgn(distance)}${help.obstacleText} = ${sgn(opposition)}` : sgn(opposition);
  const where = zoneName(st, zone);
  const told =
    shifts < 0
      ? `${capital(c.name)} tries to make ${name} on ${where}, and it backfires: ${sideName(other(c.side))} may invoke it once for free.`
      : shifts === 0
        ? `${capital(c.name)} tries to make ${name} on ${where}, and gains only a minor advantage (one more card, once).`
        : `${capital(c.name)} makes ${name} on ${where}: ${shifts >= 3 ? 'two free invokes' : 'a free invoke'} ready for ${c.side === 'attacker' ? 'the attackers' : 'the defenders'} there.`;
  const story = help.story ? `${told} ${help.story}` : told;
  log(st, { kind: 'advantage', side: c.side, commander: c.id, story, text: `${c.name} creates an advantage ${how} = ${sgn(total)} against ${against}: ${result}` });
}


/**
 * A commander attacks an enemy commander in its zone in person (lines 181,
 * 189–191): Fighting and a card against Fighting and a card, as an attack
 * (seed 000 lines 124–131) — see `strike`.
 */
export function attackCommander(st: WarState, att: Commander, def: Commander): string | undefined {
  if (att.zone !== def.zone) return `${def.name} is not in the same zone`;
  if (def.novice) return `${def.name} is a novice, with no stress to take`;
  const af = cmdSkill(att, 'fighting');
  strike(st, att, def, { skill: af, label: `Fighting ${sgn(af)}`, skillName: 'fighting', cap: af, units: [] }, { skill: cmdSkill(def, 'fighting'), label: 'Fighting', skillName: 'fighting' }, `${att.name} attacks ${def.name} in person`);
  return undefined;
}

/**
 * Ranged units shoot an enemy commander in range (lines 188–191): the
 * group's summed ranged skill, less the distance, and a card against his
 * Athletics and a card (Athletics vs. Marksmanship); the stress is capped by
 * the group's skill (as the siege cap, W12). Not at a commander behind
 * standing ramparts (line 89), nor when the group is pinned.
 */
export function shootCommander(st: WarState, att: Commander, def: Commander, group: { unit: Unit; skill: UnitSkill; range: number }[]): string | undefined {
  if (def.novice) return `${def.name} is a novice, with no stress to take`;
  if (st.ramparts.some((r) => !r.fallen && r.zone === def.zone)) return `${def.name} is behind ramparts that still stand`;
  const distance = st.distance(att.zone, def.zone);
  if (group.some((g) => g.range < distance)) return `${def.name} is ${distance} zones away, beyond some of the group's reach`;
  const sum = group.reduce((n, g) => n + unitSkill(st, g.unit, g.skill), 0);
  const names = group.map((g) => st.catalogue.units[g.unit.type]?.name ?? g.unit.type);
  const label = `${group[0]!.skill === 'marksmanship' ? 'Marksmanship' : group[0]!.skill === 'lore' ? 'Lore' : 'Siege'} ${sgn(sum)}${distance ? ` − ${distance} for range` : ''}`;
  const ath = cmdSkill(def, 'athletics');
  strike(st, att, def, { skill: sum - distance, label, skillName: group[0]!.skill, cap: sum, units: group.map((g) => g.unit) }, { skill: ath, label: 'Athletics', skillName: 'athletics' }, `${att.name}'s ${[...new Set(names)].join(' and ')} shoot at ${def.name}`);
  return undefined;
}

/**
 * An attack on a commander (seed 000 lines 124–131): success is physical
 * stress equal to the shifts, capped by the skill used (at least one),
 * soaked by the track and consequences — each consequence an aspect with a
 * free invoke for the attackers (seed 000 line 141); taken out, a novice
 * steps up (a champion is simply gone). With style the attacker may reduce
 * the hit by one for a boost: it does unless that would spare the target
 * from being taken out, or leave no hit at all. A tie is a boost to the
 * attacker; failing by three, the defender's style, a boost to it.
 */
function strike(
  st: WarState,
  att: Commander,
  def: Commander,
  attack: { skill: number; label: string; skillName: string; cap: number; units: Unit[] },
  defence: { skill: number; label: string; skillName: string },
  what: string,
): void {
  const o = opposed(st, att, def, attack.skill, defence.skill, def.zone, { att: attack.units, def: [], attSkill: attack.skillName, defSkill: defence.skillName });
  const shifts = o.shifts;
  let result: string;
  let takenOut = false;
  if (shifts > 0) {
    const hit = Math.min(shifts, Math.max(1, attack.cap));
    const track = { boxes: def.filled.physical, taken: def.taken };
    const boost = shifts >= 3 && hit > 1 && !(soakStress(track, hit).takenOut && !soakStress(track, hit - 1).takenOut);
    const stress = boost ? hit - 1 : hit;
    if (boost) att.boosts++;
    const style = shifts < 3 ? '' : boost ? 'success with style, the hit reduced by one for a minor advantage: ' : 'success with style: ';
    const soaked = soakStress(track, stress);
    if (soaked.takenOut) {
      takenOut = true;
      result = `${style}${stress} physical stress: ${def.name} is taken out`;
    } else {
      def.filled.physical = soaked.track.boxes;
      def.taken = soaked.track.taken;
      const parts = [soaked.box ? `box ${soaked.box}` : '', ...soaked.consequences.map((l) => `a -${CONSEQUENCE_SOAKS[l]} consequence, ${takeConsequence(st, def, 'physical', l)}`)].filter(Boolean);
      result = `${style}${stress} physical stress (${parts.join(' and ')})`;
    }
  } else if (shifts === 0) {
    att.boosts++;
    result = 'a tie: a minor advantage';
  } else {
    if (shifts <= -3) def.boosts++;
    result = shifts <= -3 ? 'failure; the defence succeeds with style, a minor advantage to it' : 'failure';
  }
  const spent = o.extra.length ? `; ${o.extra.join('; ')}; ${sgn(o.attack)} vs ${sgn(o.defence)}` : '';
  const told = shifts > 0 ? (takenOut ? `and take ${def.name} out of the fight` : `and wound ${def.name}`) : shifts === 0 ? 'and gain a minor advantage' : 'and miss';
  log(st, { kind: 'heroic', side: att.side, commander: att.id, story: `${capital(what)}, ${told}.`, text: `${what}: ${attack.label} drew ${sgn(o.first.attack)} against ${defence.label} ${sgn(defence.skill)} drew ${sgn(o.first.defence)}${spent}: ${result}` });
  if (takenOut && def.champion) {
    // A champion commands nothing: no novice steps up for it.
    def.out = true;
    log(st, { kind: 'novice', side: def.side, commander: def.id, text: `${def.name} is taken out of the battle`, story: `${capital(def.name)} is out of the battle.` });
  } else if (takenOut) {
    tellFall(st, def, noviceStepsUp(def));
  }
}

/**
 * Overcome (seed 001 lines 186–187; seed 000 lines 114–123): a commander
 * removes an aspect of the other side's from a zone — its Tactics and a card
 * against the distance to the zone, the difficulty of creating it there
 * (seed 000 line 116). The other side may stand in the way: an invoke it
 * pays for (a free one of the aspect itself, or a fate point) adds +2 to
 * the opposition (seed 002 "Obstacle"), by the same rule as any check.
 * Fail: it stays; tie: removed at a minor cost, a stress card (seed 000 line
 * 120); success: removed; with style, a minor advantage too.
 */
export function overcomeAspect(st: WarState, c: Commander, zone: string, name: string): string | undefined {
  const z = st.field.zones.find((x) => x.id === zone);
  const target = z?.advantages.find((a) => a.name === name && a.side !== c.side);
  if (!z || !target) return `no aspect ${name} of the other side on ${zone}`;
  const tactics = cmdSkill(c, 'tactics');
  const distance = st.distance(c.zone, zone);
  const foe = st.commanders.find((e) => e.side !== c.side && !e.gone && e.zone === zone) ?? st.commanders.find((e) => e.side !== c.side && !e.gone)!;
  const help = passiveHelp(st, c.side, TEAMWORK_CAP);
  const me: CheckSide = { side: c.side, commander: c, skill: tactics + help.team, card: st.draws.draw(c.side), plus: 0, units: [] };
  const them: CheckSide = { side: other(c.side), commander: foe, skill: distance + help.obstacle, card: 0, plus: 0, units: [] };
  const margin = () => me.skill + me.card + me.plus - (them.skill + them.plus);
  const check = { zone, defending: them.side };
  const words = [
    ...improve(st, me, them, check, () => 1 - margin(), () => st.draws.draw(c.side), () => -margin()),
    // The other side answers as an obstacle: +2s only, a passive opposition draws no card.
    ...improve(st, them, me, check, () => margin() + 1, () => them.card, undefined, { plusOnly: true }).map((w) => w.replace('for +2', 'as an obstacle, +2')),
  ];
  const shifts = margin();
  let result: string;
  let fall: string | undefined;
  if (shifts < 0) result = 'failure: it stays';
  else {
    z.advantages.splice(z.advantages.indexOf(target), 1);
    if (shifts === 0) {
      const card = applyStressCard(st, c);
      fall = card.fall;
      result = `a tie: removed, at the cost of a stress card (${card.words})`;
    } else if (shifts >= 3) {
      c.boosts++;
      result = 'success with style: removed, and a minor advantage';
    } else result = 'success: removed';
  }
  const spent = words.length ? `; ${words.join('; ')}` : '';
  const told = shifts < 0 ? `${capital(c.name)} tries to clear ${name} from ${zoneName(st, zone)}, and fails.` : `${capital(c.name)} clears ${name} from ${zoneName(st, zone)}: its free invokes are gone.`;
  log(st, { kind: 'overcome', side: c.side, commander: c.id, story: help.story ? `${told} ${help.story}` : told, text: `${c.name} tries to overcome ${name} on ${zone}: Tactics ${sgn(tactics)}${help.teamText} drew ${sgn(me.card)} against ${sgn(distance)}${help.obstacleText}${spent}: ${sgn(me.skill + me.card + me.plus)} vs ${sgn(them.skill + them.plus)}: ${result}` });
  tellFall(st, c, fall);
  return undefined;
}
