import type { LoggedEvent } from '../core/events.js';
import type { UnitId } from '../core/ids.js';
import { plural, sentence, withArticle } from '../core/prose.js';
import { fateResultText, luckText } from './draw-text.js';
import { rated, signed, ladderValue } from './ladder.js';
import type { Namer } from './namer.js';
import { battleView, cap, dieWords, forcedMark, siegeRollView, warfareHeadline } from './battle-text.js';

/**
 * Events in words: one sentence for each kind of event, as a reader's Namer
 * may name things. Names for ids are namer.ts's; battles' full accounts are
 * battle-text.ts's.
 */

const RESOURCE_NAME = { renown: 'Renown', fate: 'Fate' } as const;
const INDICATOR_NAME = { prosperity: 'Prosperity', happiness: 'Happiness' } as const;

/** An external structure type by its name ("Silver mine"), never its id. */
const externalName = (names: Namer, type: string) => names.campaign.externals[type]?.name ?? type.replace(/_/g, ' ');

/** Who plays a nation now, in words (the nation's own report and the GM's; others hear a rumour). */
function seatChangeText(e: Extract<LoggedEvent, { type: 'seat_changed' }>, nation: string): string {
  switch (e.to) {
    case 'caretaker':
      return `${nation} has sent no orders for too long: a caretaker keeps it until its player is back (it defends, keeps the work going and starts no war).`;
    case 'disorder':
      return `${nation} has sent no orders for too long and falls into civil disorder: its forces only defend, nothing is built, and Happiness drifts down until its player is back.`;
    case 'player':
      return `${nation}'s player is back and gives its orders again (in others' hands since turn ${e.since ?? '?'}).`;
    case 'hold':
      return `${nation} is no longer in others' hands (since turn ${e.since ?? '?'}): without orders its forces hold where they stand.`;
  }
}

/** One sentence for an event, as `names` may name things. */
export function describeEvent(e: LoggedEvent, names: Namer): string {
  const n = (id: string) => names.nationName(id);
  const u = (id: UnitId) => names.unit(id);
  switch (e.type) {
    case 'order_rejected':
      return `${n(e.nation)}: order refused${e.line !== undefined ? ` (line ${e.line})` : ''}: ${e.order} — ${e.reason}`;
    case 'order_warned':
      return `${n(e.nation)}: order carried out with a warning${e.line !== undefined ? ` (line ${e.line})` : ''}: ${e.order} — ${e.reason}`;
    case 'order_unmet':
      return `${n(e.nation)}: order did not happen${e.line !== undefined ? ` (line ${e.line})` : ''}: ${e.order} — ${e.reason}`;
    case 'nmr':
      return `${n(e.nation)} sent no orders (${plural(e.missedTurns, 'turn')} in a row)${e.policy === 'caretaker' ? '; a caretaker gave its orders' : e.policy === 'disorder' ? '; it is in civil disorder and only defends' : ''}.`;
    case 'seat_changed':
      return seatChangeText(e, n(e.nation));
    case 'resource':
      return `${n(e.nation)}: ${RESOURCE_NAME[e.resource]} ${signed(e.delta)} (${e.reason}), now ${e.balance}.`;
    case 'indicator':
      return `${n(e.nation)}: ${INDICATOR_NAME[e.indicator]} ${signed(e.delta)} (${e.reason}), now ${rated(e.value).text}.`;
    case 'build_started':
      return `Work began on ${e.what} ${names.where(e.at)} (${plural(e.turnsLeft, 'turn')}).`;
    case 'build_completed':
      return `Work finished on ${e.what} ${names.where(e.at)}.`;
    case 'build_lost':
      return `Work on ${e.what} was lost: ${e.reason}.`;
    case 'work_abandoned':
      return `${cap(u(e.unit))} left its work: given up ${e.lost}.`;
    case 'unit_created':
      return `${cap(u(e.unit))} was raised ${names.where(e.at)}.`;
    case 'unit_moved':
      return `${cap(u(e.unit))} moved ${[e.from, ...e.path].join(' → ')}${e.carried?.length ? `, carrying ${e.carried.map(u).join(', ')}` : ''}.`;
    case 'unit_fled':
      return `${cap(u(e.unit))} got away from ${u(e.attacker)}, ${e.from} → ${e.to}${e.coin ? ` (coin: ${e.coin.value === 1 ? 'heads' : 'tails'})` : ''}.`;
    case 'pursuit':
      return `${cap(u(e.attacker))} pursued ${u(e.target)}: ${e.caught ? 'caught it' : 'it escaped'} (${e.reason}).`;
    case 'battle':
      return `${battleView(e, names, () => false).headline}: ${e.winner === 'draw' ? 'a draw' : `${n(e.winner === 'attacker' ? e.attacker.nation : e.defender.nation)} won by ${e.deficit}`}.`;
    case 'warfare':
      return warfareHeadline(e, names);
    case 'attack_cancelled':
      return `${cap(u(e.unit))}: ${e.reason}.`;
    case 'unit_health':
      return e.to === 'destroyed' ? `${cap(u(e.unit))} was destroyed (${e.reason}).` : `${cap(u(e.unit))} is now ${e.to} (${e.reason}).`;
    case 'unit_rested':
      return `${cap(u(e.unit))} rested.`;
    case 'rest_interrupted':
      return `${cap(u(e.unit))} could not rest: ${e.reason}.`;
    case 'siege_started':
      return `${cap(u(e.besieger))} laid siege to ${names.settlement(e.settlement)}.`;
    case 'siege_lifted':
      return `The siege of ${names.settlement(e.settlement)} was lifted: ${e.reason}.`;
    case 'siege_roll':
      return siegeRollView(e, names).headline;
    case 'battlement_destroyed':
      return `A +${e.level} battlement of ${names.settlement(e.settlement)} was destroyed.`;
    case 'settlement_captured':
      return `${names.settlement(e.settlement)} was taken from ${n(e.from)} by ${n(e.to)}${e.by.length ? ` (${e.by.map(u).join(', ')})` : ''}.`;
    case 'settlement_founded':
      return `${n(e.nation)} founded ${e.name} at ${e.at}.`;
    case 'settlement_upgraded':
      return `${names.settlement(e.settlement)} grew from ${withArticle(e.from)} into ${withArticle(e.to)}.`;
    case 'external_built':
      return `${n(e.nation)} completed ${withArticle(names.campaign.externals[e.structure]?.name ?? e.structure)} at ${e.at}.`;
    case 'external_captured':
      return `${n(e.to)} took ${n(e.from)}'s ${externalName(names, e.structure)} at ${e.at}${e.by.length ? ` (${e.by.map(u).join(', ')})` : ''}; what it yields is now ${n(e.to)}'s.`;
    case 'external_destroyed':
      if (!e.by) return `${e.reason ?? 'Someone'} destroyed ${n(e.nation)}'s ${externalName(names, e.structure)} at ${e.at}.`;
      return `${n(e.by)} destroyed ${n(e.nation)}'s ${externalName(names, e.structure)} at ${e.at}${e.units.length ? ` (${e.units.map(u).join(', ')})` : e.reason ? ` (${e.reason})` : ''}.`;
    case 'external_held':
      return `${n(e.nation)} held its ${externalName(names, e.structure)} at ${e.at} against ${n(e.by)}.`;
    case 'goal_completed':
      return `${n(e.nation)} achieved a goal: ${sentence(names.goalText(e.nation, e.goal))}`;
    case 'nation_fallen':
      return `${n(e.nation)} has fallen: it holds no settlement and no unit.`;
    case 'press': {
      const to = e.to === 'all' ? 'every nation' : e.to.map(n).join(', ');
      const from = e.anonymous && !names.readsAs(e.from) && !names.readsAll() ? 'Someone' : cap(n(e.from));
      return `${from} wrote${e.anonymous ? ' (unsigned)' : ''} to ${to}: “${e.text}”`;
    }
    case 'heir_named':
      return `${cap(n(e.nation))} named ${e.name} heir${e.ability ? `, to bring ${names.campaign.abilities[e.ability]?.name ?? e.ability}` : ''}${e.by === 'gm' ? ' (by the GM)' : ''}.`;
    case 'leader_died':
      return `${e.name}, who ruled ${n(e.nation)}, has died: ${e.reason}.`;
    case 'leader_succeeded':
      return `${e.name} now rules ${n(e.nation)}${e.after ? `, after ${e.after}` : ''}${e.ability ? `, bringing ${names.campaign.abilities[e.ability]?.name ?? e.ability}` : ''}.`;
    case 'leader_vacant':
      return `${cap(n(e.nation))} has no leader and no heir: an heir order names one.`;
    case 'gm_note':
      return `${cap(n(e.nation))} wrote to the GM: “${e.text}”`;
    case 'season':
      return `The season turns: ${e.season} of ${e.year}.`;
    case 'event_draw':
      return `${n(e.nation)} drew for events (${e.draw}): ${e.quiet.die} ${e.quiet.value} against ${e.quietChance}% quiet${e.event ? `; ${e.pick?.die ?? 'd100'} ${e.pick?.value ?? '?'} among ${plural(e.candidates, 'candidate')} picked "${e.event}"` : e.quiet.value <= e.quietChance ? ' — a quiet turn' : ' — nothing could happen'}.`;
    case 'event_fired':
      return `${n(e.nation)}: ${e.title}${e.how === 'gm' ? ' (by the GM)' : ''} — ${e.text}`;
    case 'event_message':
      return e.text;
    case 'structure_destroyed':
      return `The ${names.campaign.structures[e.structure]?.name ?? e.structure} of ${names.settlement(e.settlement)} was destroyed (${e.reason}).`;
    case 'battlement_damaged':
      return `A +${e.from} battlement of ${names.settlement(e.settlement)} was damaged to +${e.to} (${e.reason}).`;
    case 'resource_revealed':
      return `${n(e.nation)} found ${e.name} (${e.kind}) at ${e.hex}.`;
    case 'unlocked':
      return `${n(e.nation)} can now build ${e.what === 'unit_type' ? 'units of type' : 'the structure'} ${e.name}.`;
    case 'unit_forgone':
      return `${n(e.nation)} did without a new ${names.campaign.nations[e.nation]?.unitTypes[e.unitType]?.name ?? e.unitType} (${e.reason}).`;
    case 'follow_up_set':
      return `${n(e.nation)}: "${e.event}" will follow on turn ${e.turn}.`;
    case 'revolt_roll':
      return `${names.settlement(e.settlement)} ${e.revolted ? 'rose in revolt' : 'stayed loyal'} (risk ${e.chance}%, ${e.roll.die} rolled ${e.roll.value}${e.roll.forced && names.readsAll() ? ', forced' : ''}).`;
    case 'roll_asked':
      return `${n(e.nation)}: "${e.title}" asks for a roll, answered with the orders for turn ${e.turn}.`;
    case 'event_roll': {
      const fate = e.fateSpent ? ` + ${e.modifier} for ${e.fateSpent} Fate` : '';
      const how = e.answered ? `answered "${e.option}"` : `unanswered, so "${e.option}" was taken`;
      const result = e.outcome === 'fail' ? 'failed' : e.outcome === 'great' ? 'a great success' : 'a success';
      return `${n(e.nation)}: the roll for "${e.title}" (${how}): ${dieWords(e.roll, names)}${fate} = ${e.total} against ${ladderValue(names.campaign, e.beat)} to beat — ${result}.`;
    }
    case 'explore_roll': {
      const fate = e.fateSpent ? ` + ${e.modifier} for ${e.fateSpent} Fate` : '';
      const result = e.total <= e.beat ? 'nothing found' : e.found ? 'a find' : 'a good search, but nothing is hidden there';
      return `${u(e.unit)} explored around ${e.at}: ${dieWords(e.roll, names)}${fate} = ${e.total} against ${ladderValue(names.campaign, e.beat)} to beat — ${result}.`;
    }
    case 'task_set':
      return `${n(e.nation)}: a task — ${e.text.replace(/[.!]+$/, "")} (deadline: turn ${e.deadline}).`;
    case 'task_met':
      return `${n(e.nation)}: the task of "${e.title}" is met (${e.how}).`;
    case 'task_missed':
      return `${n(e.nation)}: the task of "${e.title}" is missed: ${e.why}.`;
    case 'action_taken': {
      if (e.void) return `${u(e.unit)} did not take the action ${e.name}: ${e.void}.`;
      if (!e.roll) return `${u(e.unit)}: ${e.name} — ${e.target}.`;
      const mods = e.modifiers.map((m) => ` ${signed(m.value)} ${m.source}`).join('');
      const fate = e.fateSpent ? ` + Fate (${e.fateSpent} spent)` : '';
      const result = e.outcome === 'fail' ? 'failed' : e.outcome === 'great' ? 'a great success' : 'a success';
      return `${u(e.unit)}: ${e.name} — ${e.target}: ${e.roll.die} ${e.roll.value}${forcedMark(e.roll, names)}${mods}${fate} = ${e.total} against ${e.beat} to beat — ${result}.`;
    }
    case 'secret_learned':
      return `Your agents learned: ${e.text}`;
    case 'action_noticed': {
      const who = e.by ? ` by agents of ${n(e.by)}` : '';
      return e.outcome === 'fail' ? `${e.name} against ${e.place} was foiled${who}.` : `${e.name} at ${e.place}${e.by ? `, by agents of ${n(e.by)}` : ', by agents unknown'}.`;
    }
    case 'work_delayed':
      return `The ${e.what} was set back ${plural(e.by, 'turn')} (${e.reason}); ${plural(e.turnsLeft, 'turn')} left.`;
    case 'catch_roll': {
      const fate = e.total !== undefined ? `, +${e.total - e.roll.value} for ${e.fateSpent ? `${e.fateSpent} Fate` : 'the Fate spent on the hunt'} = ${e.total}` : '';
      return `${names.readsAs(e.nation) ? 'Your guards' : `The guards of ${n(e.nation)}`} tried to catch ${e.unit ? u(e.unit) : 'the culprit'} after the ${e.action} at ${e.place}: d6 ${e.roll.value}${forcedMark(e.roll, names)}${fate} against ${e.beat} to beat — ${e.caught ? 'caught' : 'it got away'}.`;
    }
    case 'catch_waived':
      return `${names.readsAs(e.nation) ? 'Your guards' : `The guards of ${n(e.nation)}`} let ${e.unit ? u(e.unit) : 'the culprit'} go after the ${e.action} at ${e.place}, as ordered.`;
    case 'trade_route_opened':
      return `A trade route opened between ${names.settlement(e.from)} and ${names.settlement(e.to)}: ${e.income} Renown a turn to each nation while it is open.`;
    case 'trade_route_cut':
      return `The trade route between ${names.settlement(e.from)} and ${names.settlement(e.to)} was cut: ${e.reason}.`;
    case 'civil_war': {
      const what = [e.settlements.map((x) => names.settlement(x)).join(', '), e.units.length ? `${e.units.length} unit${e.units.length === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
      return names.readsAs(e.into)
        ? `Civil war (${e.event}): ${e.leader} raises the banner of ${n(e.into)} against ${n(e.from)}; ${what} are yours.`
        : `Civil war (${e.event}): ${n(e.into)}, under ${e.leader}, broke away from ${n(e.from)}, taking ${what}.`;
    }
    case 'settlement_revolted':
      return `${names.settlement(e.settlement)} rose against ${n(e.from)} and is now held by ${n(e.to)}${e.garrison.length ? ` (garrison: ${e.garrison.map(u).join(', ')})` : ''}.`;
    case 'aspect_created':
      return e.refreshed
        ? `The aspect "${e.aspect}" on ${e.place} now has ${plural(e.free, 'free invoke')}.`
        : `${e.boost ? 'A boost' : 'A new aspect'}, "${e.aspect}", on ${e.place}${e.boost ? '' : ` with ${plural(e.free, 'free invoke')}`}${e.owner ? ` (${n(e.owner)}'s)` : e.backfired ? ` (anyone's but ${n(e.backfired)}'s: a failed attempt backfired)` : ''}${e.secret ? ', secret' : ''}.`;
    case 'aspect_removed':
      return `The aspect "${e.aspect}" on ${e.place} is gone: ${e.reason}.`;
    case 'aspect_roll': {
      const what = e.action === 'create_advantage' ? `to create the advantage "${e.aspect}"` : `to overcome "${e.aspect}"`;
      const faces = e.faces.map((f) => (f > 0 ? '+' : f < 0 ? '−' : '0')).join('');
      // Under the Deck of Fate the four dice are one card (docs/rules.md A2): it has no faces to show.
      const drawn = e.faces.length === 0 && e.dice.length === 1 ? fateResultText(e.dice[0]!) : null;
      const result = { fail: 'failed', tie: 'a tie', success: 'a success', style: 'a success with style' }[e.outcome];
      return `${e.by} tried ${what}: ${drawn ? `${drawn},` : `4dF [${faces}]`} + ${e.skill} = ${e.total} against ${e.difficulty} — ${result}.`;
    }
    case 'aspect_invoked': {
      const effect = e.effect === 'plus2' ? '+2' : e.effect === 'reroll' ? 'a re-roll' : `fortune +${e.value}`;
      const paid = e.pay === 'fate' ? `${e.cost} Fate${e.paidTo ? `, paid to ${n(e.paidTo)}` : ''}` : e.pay === 'boost' ? 'the boost used up' : `a free invoke, ${e.freeLeft} left`;
      return `${n(e.nation)} invoked "${e.aspect}" on ${e.roll}: ${effect} (${paid}).`;
    }
    case 'aspect_action_void':
      return `${n(e.nation)}: ${e.action === 'overcome' ? `the overcome roll against "${e.aspect}"` : `the create-advantage roll for "${e.aspect}"`} was not made: ${e.reason}.`;
    case 'invoke_unused':
      return `${n(e.nation)}: "${e.aspect}" was not invoked on ${e.roll}: ${e.reason}; nothing was spent.`;
    case 'aspect_luck':
      return `${n(e.nation)} drew ${e.kind} from ${e.aspects.map((a) => `"${a}"`).join(', ')} on ${e.roll}: ${e.value >= 0 ? '+' : ''}${e.value} (${e.draws.map(luckText).join('; ')}).`;
    case 'warfare_fate': {
      const kept = e.pledged - e.spent;
      const spent = e.spent ? `spent ${e.spent} of the ${e.pledged} Fate pledged (${plural(e.invokes, 'invoke')}, a fate point each)` : `spent none of the ${e.pledged} Fate pledged`;
      const short = e.pool < e.pledged ? ` — only ${e.pool} could be spent, all ${n(e.nation)} had` : '';
      return `${n(e.nation)}'s commanders ${spent} on the Warfare battle at ${e.at}${short}; ${kept > 0 ? `the other ${kept} stay${kept === 1 ? 's' : ''} in the treasury` : 'none is left over'}.`;
    }
    case 'compel_offered':
      return `${e.by === 'gm' ? 'The GM compels' : 'Events compel'} ${n(e.nation)}'s aspect "${e.aspect}": ${e.text} (answer "${e.id}" next turn: accept for a fate point, or refuse for ${e.cost}).`;
    case 'compel_void':
      return `A compel "${e.id}" of "${e.aspect}" for ${n(e.nation)} was not made: ${e.reason}.`;
    case 'compel_answered':
      return e.accepted
        ? `${n(e.nation)} ${e.answered ? 'accepted' : 'did not answer, and so accepted,'} the compel of "${e.aspect}" (${e.text}): a fate point${e.reason ? `; ${e.reason}` : ''}.`
        : `${n(e.nation)} refused the compel of "${e.aspect}" (${e.text}), paying a fate point.`;
    case 'order_not_applied':
      return `${n(e.nation)}: ${e.what} did not apply: ${e.reason}.`;
  }
  // An event type added to the engine after this was written: show it plainly.
  return `${(e as { type: string }).type} event.`;
}
