import { aspectKey, canSee, findAspects, mayUseFree, placeHex, placeText, samePlace, visibleAspects } from '../aspects/places.js';
import { invokeKey, TEAMWORK_CAP } from '../aspects/invoke.js';
import { invokeNote, invokeWarfareWhen } from './battle-plan.js';
import type { TurnContext } from '../context.js';
import { hexDistance, offsetOf } from '../hex.js';
import type { HexKey, NationId, UnitId } from '../ids.js';
import { leaderOf } from '../leaders.js';
import type { AspectActor, CreateAdvantageOrder, InvokeOrder, InvokeTarget, OvercomeOrder } from '../orders.js';
import type { AspectPlace } from '../state.js';
import { didYouMean } from '../../text/suggest.js';
import { ownUnit, isRejected, unitLabel } from './lookup.js';
import { reject, type Rejected, type Slot, type Verdict } from './verdict.js';

/**
 * The Fate layer's orders (docs/rules.md A2-A5): create an advantage,
 * overcome an aspect, invoke one on a roll. All refused while
 * rules.fate.aspects is off. Aspects are found among those the nation can
 * see, so a refusal never tells of a secret one.
 */
const OFF = () => reject('aspects are not used in this campaign', 'the GM turns them on with rules.fate.aspects');

const LADDER: Record<number, string> = { [-2]: 'Terrible', [-1]: 'Poor', 0: 'Mediocre', 1: 'Average', 2: 'Fair', 3: 'Good', 4: 'Great', 5: 'Superb', 6: 'Fantastic', 7: 'Epic', 8: 'Legendary' };
const onLadder = (n: number) => `${n >= 0 ? '+' : ''}${n}${LADDER[n] ? ` ${LADDER[n]}` : ''}`;

interface Actor {
  name: string;
  skill: number;
  /** Where a unit stands: it acts on what is within one hex. A leader acts anywhere. */
  hex?: HexKey;
  claims: UnitId[];
  slots: Slot[];
}

function actor(ctx: TurnContext, nation: NationId, by: AspectActor): Actor | Rejected {
  if ('leader' in by) {
    const name = leaderOf(ctx.campaign, ctx.start.nations[nation] ?? ctx.nationState(nation)).name;
    if (name === null) return reject('your nation has no leader to act', 'name an heir, or act with a diplomatic unit');
    return { name, skill: ctx.rules.fate.skill.leader, claims: [], slots: [{ key: 'aspect-leader', limit: 1, label: 'the leader makes one create-advantage or overcome roll a turn' }] };
  }
  const unit = ownUnit(ctx, nation, by.unit);
  if (isRejected(unit)) return unit;
  if (ctx.unitType(unit).class !== 'diplomatic') return reject(`${unitLabel(ctx, unit)} is not a diplomatic unit`, 'the leader ("with leader") or a diplomatic unit makes these rolls');
  return { name: unitLabel(ctx, unit), skill: ctx.rules.fate.skill.diplomatic, hex: unit.hex, claims: [unit.id], slots: [] };
}

function within(ctx: TurnContext, who: Actor, place: AspectPlace): Rejected | undefined {
  const at = placeHex(ctx.start, place);
  if (!who.hex || !at) return undefined;
  if (hexDistance(offsetOf(who.hex), offsetOf(at)) <= 1 + ('hex' in place ? (place.radius ?? 0) : 0)) return undefined;
  return reject(`${who.name} is too far from ${placeText(ctx.campaign, ctx.start, place)} (at ${at})`, 'a unit acts on what is on its hex or next to it; the leader acts anywhere');
}

function placeExists(ctx: TurnContext, place: AspectPlace): Rejected | undefined {
  if ('nation' in place) return ctx.start.nations[place.nation] ? undefined : reject(`there is no nation ${place.nation}`);
  if ('settlement' in place) return ctx.start.settlements[place.settlement] ? undefined : reject(`there is no settlement ${place.settlement}`);
  if ('unit' in place) return ctx.start.units[place.unit] ? undefined : reject(`there is no unit ${place.unit}`);
  return ctx.map.contains(place.hex) ? undefined : reject(`${place.hex} is not on the map`);
}

const rollLine = (ctx: TurnContext, who: Actor) => `4dF + ${who.skill} against ${onLadder(ctx.rules.fate.difficulty)}`;

export function checkCreateAdvantage(ctx: TurnContext, nation: NationId, o: CreateAdvantageOrder): Verdict {
  if (!ctx.rules.fate.aspects) return OFF();
  const name = o.aspect.trim();
  if (!name || name.length > 60) return reject('an aspect is named in 1 to 60 characters', 'create advantage "High Walls" with leader');
  const who = actor(ctx, nation, o.by);
  if (isRejected(who)) return who;
  const on = o.on ?? { nation };
  const bad = placeExists(ctx, on) ?? within(ctx, who, on);
  if (bad) return bad;
  const where = placeText(ctx.campaign, ctx.start, on);
  const key = aspectKey(name);
  const there = (ctx.start.aspects ?? []).some((a) => !a.boost && aspectKey(a.name) === key && canSee(ctx.start, a, nation) && samePlace(a.on, on));
  const what = there ? `adds free invokes to "${name}" on ${where}` : `creates the advantage "${name}" on ${where}`;
  return {
    ok: true,
    claims: who.claims,
    slots: [...who.slots, { key: `advantage:${key}`, limit: 1, label: `one create-advantage roll for "${name}" a turn` }],
    summary: `${who.name} ${what}: ${rollLine(ctx, who)} (fail: nothing; tie: a boost; success: 1 free invoke; with style: 2)`,
  };
}

export function checkOvercome(ctx: TurnContext, nation: NationId, o: OvercomeOrder): Verdict {
  if (!ctx.rules.fate.aspects) return OFF();
  const found = findAspects(ctx.start, nation, o.aspect);
  const target = found[0];
  if (!target) return unknownAspect(ctx, nation, o.aspect);
  const who = actor(ctx, nation, o.by);
  if (isRejected(who)) return who;
  const far = within(ctx, who, target.on);
  if (far) return far;
  return {
    ok: true,
    claims: who.claims,
    slots: [...who.slots, { key: `overcome:${aspectKey(target.name)}`, limit: 1, label: `one overcome roll against "${target.name}" a turn` }],
    summary: `${who.name} tries to overcome "${target.name}" on ${placeText(ctx.campaign, ctx.start, target.on)}: ${rollLine(ctx, who)} (success removes it)`,
  };
}

function unknownAspect(ctx: TurnContext, nation: NationId, written: string): Rejected {
  const names = [...new Set(visibleAspects(ctx.start, nation).map((a) => a.name))];
  return reject(`there is no aspect "${written}" that you know of`, didYouMean(written, names) ?? (names.length ? `aspects you know of: ${names.map((n) => `"${n}"`).join(', ')}` : 'no aspect is in play that you know of'));
}

/** The roll in words, as the receipt and the events say it. */
export function invokeTargetText(ctx: TurnContext, on: InvokeTarget): string {
  if ('battle' in on) return `the battle at ${on.battle}`;
  if ('assault' in on) return `the assault on ${ctx.start.settlements[on.assault]?.name ?? on.assault}`;
  if ('siege' in on) return `the siege of ${ctx.start.settlements[on.siege]?.name ?? on.siege}`;
  const title = ctx.campaign.events?.entries[on.roll]?.title;
  return `the roll "${title ?? on.roll}"`;
}

function targetProblem(ctx: TurnContext, nation: NationId, on: InvokeTarget): Rejected | undefined {
  if ('battle' in on) return ctx.map.contains(on.battle) ? undefined : reject(`${on.battle} is not on the map`);
  const s = 'assault' in on ? on.assault : 'siege' in on ? on.siege : undefined;
  if (s !== undefined) return ctx.start.settlements[s] ? undefined : reject(`there is no settlement ${s}`);
  if (!('roll' in on)) return undefined;
  const waiting = (ctx.start.nations[nation]?.rolls ?? []).filter((r) => r.turn === ctx.turn);
  if (waiting.some((r) => r.event === on.roll)) return undefined;
  return reject(`no roll "${on.roll}" awaits your answer this turn`, waiting.length ? `rolls awaiting your answer: ${waiting.map((r) => r.event).join(', ')}` : 'no roll awaits your answer this turn');
}


/**
 * Teamwork and obstacles (docs/rules.md A10; seed 002 "Invoking Aspects"):
 * +2 to another nation's roll, or +2 to what opposes it — the number a
 * siege roll must beat, or the side a nation fights in a battle or an
 * assault. An event's roll is its nation's own business: not there.
 */
function helpProblem(ctx: TurnContext, nation: NationId, o: InvokeOrder): Rejected | { text: string; effect: string; note: string } {
  const h = o.help!;
  const team = 'for' in h;
  const other = team ? h.for : h.against;
  if (other === nation) return reject(`an invoke ${team ? 'for' : 'against'} your own nation is a plain invoke`, `leave out "${team ? 'for' : 'against'} …"`);
  if (!ctx.start.nations[other]) return reject(`there is no nation ${other}`);
  if ('roll' in o.on) return reject('teamwork and obstacle invokes work on sieges, battles and assaults; an event\'s roll is its own nation\'s', 'e.g. invoke "High Walls" on the siege of Cinderford against Argenta');
  if (o.reroll) return reject('teamwork and obstacle invokes add +2; only the roll\'s own nation re-rolls');
  const name = ctx.nationDef(other).name;
  const teamwork = `+2 (teamwork, at most +${TEAMWORK_CAP} in all on one roll)`;
  if ('siege' in o.on) {
    const s = ctx.start.settlements[o.on.siege];
    if (!s) return reject(`there is no settlement ${o.on.siege}`);
    return { text: `${name}'s rolls at the siege of ${s.name}`, effect: team ? teamwork : '+2 to the number to beat (an obstacle)', note: '' };
  }
  const bad = targetProblem(ctx, nation, o.on);
  if (bad) return bad;
  const at = 'battle' in o.on ? o.on.battle : ctx.start.settlements[o.on.assault]!.hex;
  const warfare = invokeWarfareWhen(ctx, at, 'battle' in o.on ? 'open' : 'assault');
  return {
    text: `${name}'s side in ${invokeTargetText(ctx, o.on)}`,
    effect: team ? teamwork : `+2 to the side ${name} fights (an obstacle)`,
    note: warfare ? `; if that battle is fought as Warfare, on ${name}'s first check there against a passive opposition (creating an advantage, overcoming an aspect), or not at all` : '',
  };
}

/** An invoke on a battle or an assault that may be fought as Warfare: what its commanders do with it (W20). */
function invokeWarfareNote(ctx: TurnContext, o: InvokeOrder): string {
  if ('battle' in o.on) return invokeNote(ctx, o.on.battle, 'open', o.reroll);
  const s = 'assault' in o.on ? ctx.start.settlements[o.on.assault] : undefined;
  return s ? invokeNote(ctx, s.hex, 'assault', o.reroll) : '';
}

export function checkInvoke(ctx: TurnContext, nation: NationId, o: InvokeOrder): Verdict {
  if (!ctx.rules.fate.aspects) return OFF();
  const found = findAspects(ctx.start, nation, o.aspect);
  const aspect = found.find((a) => a.boost || (mayUseFree(a, nation) && a.free > 0)) ?? found[0];
  if (!aspect) return unknownAspect(ctx, nation, o.aspect);
  const help = o.help ? helpProblem(ctx, nation, o) : undefined;
  if (help && 'ok' in help) return help;
  const bad = o.help ? undefined : targetProblem(ctx, nation, o.on);
  if (bad) return bad;
  const roll = help ? help.text : invokeTargetText(ctx, o.on);
  const note = help ? help.note : invokeWarfareNote(ctx, o);
  const key = aspectKey(aspect.name);
  const effect = help ? help.effect : o.reroll ? 're-roll if behind' : '+2';
  const holder = 'nation' in aspect.on ? aspect.on.nation : 'settlement' in aspect.on ? ctx.start.settlements[aspect.on.settlement]?.nation : 'unit' in aspect.on ? ctx.start.units[aspect.on.unit]?.nation : undefined;
  if (aspect.boost) {
    if (o.reroll) return reject(`"${aspect.name}" is a boost: it adds fortune and cannot re-roll`, `invoke "${aspect.name}" on …`);
    if (o.pay === 'fate') return reject(`"${aspect.name}" is a boost: it is used for free, once`);
    return { ok: true, claims: [], slots: [{ key: `free:${key}`, limit: 1, label: `the boost "${aspect.name}" is used once` }], summary: `Uses the boost "${aspect.name}" on ${roll}: fortune (+0 to +3), then it is gone` };
  }
  const freeLeft = mayUseFree(aspect, nation) ? aspect.free : 0;
  const pay = o.pay ?? (freeLeft > 0 ? 'free' : 'fate');
  if (pay === 'free') {
    if (aspect.backfired === nation) return reject(`the free invoke of "${aspect.name}" is not yours: it came into play when your own attempt failed`, `pay Fate instead: invoke "${aspect.name}" on … fate`);
    if (!mayUseFree(aspect, nation)) return reject(`the free invokes of "${aspect.name}" belong to the nation that made it`, `pay Fate instead: invoke "${aspect.name}" on … fate`);
    if (freeLeft < 1) return reject(`"${aspect.name}" has no free invoke left`, `pay Fate instead: invoke "${aspect.name}" on … fate`);
    return {
      ok: true,
      claims: [],
      slots: [{ key: `free:${key}`, limit: freeLeft, label: `"${aspect.name}" has ${freeLeft} free invoke${freeLeft === 1 ? '' : 's'}, spent by the lines above (add "fate" to pay for this one)` }],
      summary: `Invokes "${aspect.name}" on ${roll} for ${effect}: a free invoke (of ${freeLeft})${note}`,
    };
  }
  const cost = ctx.rules.fate.invokeCost;
  const fate = ctx.start.nations[nation]?.fate ?? 0;
  if (fate < cost) return reject(`invoking "${aspect.name}" costs ${cost} Fate; you have ${fate}`);
  const paysTo = holder && holder !== nation ? `, paid to ${ctx.nationDef(holder).name} when invoked against it` : '';
  return {
    ok: true,
    claims: [],
    ...(cost ? { fate: cost } : {}),
    slots: [{ key: `paid:${key}:${invokeKey(ctx, o.on)}${o.help ? `:${'for' in o.help ? `for:${o.help.for}` : `against:${o.help.against}`}` : ''}`, limit: 1, label: `"${aspect.name}" is invoked with Fate once on ${roll} (an aspect is invoked once a roll; only free invokes stack)` }],
    summary: `Invokes "${aspect.name}" on ${roll} for ${effect}: ${cost} Fate${paysTo}${note}`,
  };
}
