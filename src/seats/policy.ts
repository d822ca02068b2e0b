import type { CampaignFile } from '../campaign/schema.js';
import type { Campaign } from '../core/campaign.js';
import { asNationId, sortedKeys, type NationId } from '../core/ids.js';
import type { SeatPolicy } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { seatSettingsOf, type SeatPolicyName, type Seats } from './settings.js';

/**
 * Which seats a policy plays in the pending turn, decided from what is on
 * disk alone (pure): the latest state, campaign.yaml and the nations the GM
 * dropped. docs/operations.md, "Missing players", is the reading:
 *
 * - A miss is a turn at whose deadline the nation's player had sent no orders
 *   (state: `missedTurns`, counted by the engine; orders that hold everything,
 *   or a `back` mail, are orders). Nations out of play — fallen, in waiting
 *   (`breaksFrom`, not yet split off), the rebels, dropped by the GM — owe
 *   nothing and are never a seat here.
 * - After `rules.nmrFlagAfter` misses in a row the nation's policy applies
 *   from the next turn, unless its player's orders come first. A nation with
 *   no player at all (no address in campaign.yaml, not dropped) is under its
 *   policy from the start: a GM's non-player nation.
 */
export type SeatMode = SeatPolicyName;

export interface SeatDecision {
  nation: NationId;
  mode: SeatMode;
  /** What applies when the turn resolves: the mode, or for `pause` the next policy in the list (hold when none). */
  atResolution: 'hold' | SeatPolicy;
  /** The caretaker policy's caretaker (campaign.yaml seats.caretaker or the nation's). */
  caretaker?: string;
  /** True when the nation has no player (no address): not a missed seat, the GM's own. */
  unplayed: boolean;
  missedTurns: number;
}

export interface SeatFacts {
  campaign: Campaign;
  file: CampaignFile;
  seats: Seats;
  /** The latest resolved state: the pending turn is the one after it. */
  state: GameState;
  /** Nations the GM dropped (runtime.yaml): they hold for ever. */
  dropped: ReadonlySet<string>;
}

/** A nation's seat in the pending turn, or undefined when no policy concerns it (a player in good standing, or no seat). */
export function seatDecision(facts: SeatFacts, nation: NationId): SeatDecision | undefined {
  const def = facts.campaign.nations[nation];
  const ns = facts.state.nations[nation];
  if (!def || !ns?.alive || facts.dropped.has(nation)) return undefined;
  const own = facts.seats.nations[nation];
  // The rebels are the GM's; a policy of their own is the GM asking a caretaker to play them.
  if (def.rebels && !own?.policy) return undefined;
  const settings = seatSettingsOf(facts.seats, nation);
  const unplayed = (facts.file.nations[nation]?.email ?? []).length === 0 || def.rebels === true;
  if (!unplayed && ns.missedTurns < facts.campaign.rules.nmrFlagAfter) return undefined;
  const list = unplayed ? settings.policy.filter((p) => p !== 'pause') : settings.policy;
  const mode = list[0] ?? 'hold';
  const atResolution = (list.find((p) => p !== 'pause') ?? 'hold') as SeatDecision['atResolution'];
  return { nation, mode, atResolution, ...(settings.caretaker ? { caretaker: settings.caretaker } : {}), unplayed, missedTurns: ns.missedTurns };
}

/** Every seat a policy concerns in the pending turn, in id order. */
export function seatDecisions(facts: SeatFacts): SeatDecision[] {
  return sortedKeys(facts.campaign.nations).flatMap((n) => {
    const d = seatDecision(facts, asNationId(n));
    return d ? [d] : [];
  });
}

/** What the policy will do, in a player's words (the warning mail, status). */
export function policyWords(mode: SeatMode | 'hold'): string {
  switch (mode) {
    case 'caretaker':
      return 'a caretaker will give your nation its orders: it defends your settlements, keeps your work going and raises troops, and starts no war';
    case 'disorder':
      return 'your nation falls into civil disorder: its forces only defend, nothing is built, and its Happiness drifts down each turn';
    case 'pause':
      return 'the game waits for a new player to take your nation';
    case 'hold':
      return 'your forces hold where they stand';
  }
}
