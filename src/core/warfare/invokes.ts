import { signed } from '../ladder.js';
import { unitAspects, type WarState } from './state.js';
import type { BattleAspect, Commander, Side, Unit } from './types.js';

/**
 * What a commander may spend on one check, and when it spends it
 * (docs/rules.md W11, W20). Units have no fate points: their commander
 * spends the side's (seed 001 line 10) — the Fate its nation pledged — to
 * invoke an aspect after the draw (seed 000 lines 50–57): +2, or another
 * card. Free invokes come first and cost nothing.
 *
 * The automated commander's rule, the same for both sides of a check:
 * - it spends only to turn the check: the attacker while its attack would
 *   not succeed (a tie it can buy is enough when a clean success is out of
 *   reach), the defence while it would;
 * - +2s when enough of them turn it — free invokes first, then fate
 *   points, each paid invoke on another aspect (an aspect is paid for once
 *   a check, seed 000 line 56), its own aspects before the other side's
 *   (whose nation a paid invoke pays);
 * - when the +2s it has cannot turn it, another card — a minor advantage
 *   first (seed 001 line 173), then a free invoke, then a fate point — but
 *   only when the new card has at least a one-in-six chance to turn it with
 *   what is left; otherwise it keeps what it has for a better moment.
 */

/** One side of a check: whose it is, what it adds up to now, and the units on either side of it. */
export interface CheckSide {
  side: Side;
  commander: Commander;
  /** Skill and modifiers, without the card. */
  skill: number;
  card: number;
  plus: number;
  /** Its units in the check (the attacking group, or the unit attacked): their aspects are its own, their weaknesses the other side's. */
  units: Unit[];
}

/** A check as both sides see it: the zone (its advantages and terrain) and the enemy commander (his consequences). */
export interface Check {
  zone: string;
  /** The side the check is made against: the terrain is its cover. */
  defending: Side;
}

/** The chance that a 4dF roll (or a card of a full deck) is at least n (seed 002: four Fate dice). */
export function atLeast(n: number): number {
  const ways = [1, 4, 10, 16, 19, 16, 10, 4, 1];
  let hits = 0;
  for (let r = -4; r <= 4; r++) if (r >= n) hits += ways[r + 4]!;
  return hits / 81;
}

/**
 * A new card is worth a minor advantage or an invoke only at this chance of
 * turning the check (our reading): one in six. The seed's own commander
 * draws again needing +2 or better (seed 001 line 173: 15 cards in 81).
 */
export const REDRAW_ODDS = 1 / 6;

interface Free {
  name: string;
  use: () => void;
  hostile: boolean;
  ref?: string;
  /** A nation's ordered invoke marked "reroll": only for another card. */
  redrawOnly?: boolean;
}

interface Paid {
  name: string;
  hostile: boolean;
  ref?: string;
  /** Ordered by its player: paid from the nation's Fate, not the pledge. */
  ordered?: BattleAspect;
  redrawOnly?: boolean;
}


/** Free invokes the side may spend on this check, in the order it spends them. */
function freeInvokes(st: WarState, me: CheckSide, foe: CheckSide, check: Check): Free[] {
  const out: Free[] = [];
  const zone = st.field.zones.find((z) => z.id === check.zone);
  for (const adv of zone?.advantages ?? []) {
    if (adv.side !== me.side) continue;
    for (let i = 0; i < adv.invokes; i++) out.push({ name: adv.name, hostile: false, use: () => void adv.invokes-- });
  }
  for (const c of foe.commander.consequences ?? []) {
    if (c.side !== me.side) continue;
    for (let i = 0; i < c.free; i++) out.push({ name: c.name, hostile: false, use: () => void c.free-- });
  }
  for (const a of st.nationAspects[me.side]) {
    for (let i = 0; i < a.free; i++) out.push({ name: a.name, hostile: false, ref: a.ref, ...(a.redrawOnly ? { redrawOnly: true } : {}), use: () => void a.free-- });
  }
  return out;
}

/** Aspects the side may pay to invoke on this check, each once: its own first, then the other side's. */
function paidInvokes(st: WarState, me: CheckSide, foe: CheckSide, check: Check): Paid[] {
  const seen = new Set<string>();
  const out: Paid[] = [];
  const add = (p: Paid) => {
    if (seen.has(p.name)) return;
    seen.add(p.name);
    out.push(p);
  };
  // Invokes its player ordered for this battle, paid with the nation's own Fate (docs/rules.md A3).
  for (const a of st.nationAspects[me.side]) if (a.ordered > 0) add({ name: a.name, hostile: a.hostile, ref: a.ref, ordered: a, ...(a.redrawOnly ? { redrawOnly: true } : {}) });
  if (st.fate[me.side].pool - st.fate[me.side].spent <= 0) return out;
  for (const u of me.units) for (const name of unitAspects(st, u).own) add({ name, hostile: false });
  if (check.defending === me.side) for (const name of st.field.zones.find((z) => z.id === check.zone)?.aspects ?? []) add({ name, hostile: false });
  for (const a of st.nationAspects[me.side]) if (a.pool && !a.hostile) add({ name: a.name, hostile: false, ref: a.ref });
  for (const a of st.nationAspects[me.side]) if (a.pool && a.hostile) add({ name: a.name, hostile: true, ref: a.ref });
  for (const u of foe.units) for (const name of unitAspects(st, u).against) add({ name, hostile: true });
  for (const c of foe.commander.consequences ?? []) add({ name: c.name, hostile: true });
  return out;
}

/**
 * Spends what the side has to turn the check, by the rule above; returns
 * what it did, in words, for the account. `need` is how many more points
 * it needs (0 or less: it has what it wants).
 */
export function improve(st: WarState, me: CheckSide, foe: CheckSide, check: Check, need: () => number, redraw: () => number, tieNeed?: () => number, opts: { plusOnly?: boolean } = {}): string[] {
  const words: string[] = [];
  const free = freeInvokes(st, me, foe, check);
  const paid = paidInvokes(st, me, foe, check);
  const pool = st.fate[me.side];
  const canPay = (p: Paid) => (p.ordered ? p.ordered.ordered > 0 : pool.pool - pool.spent > 0);
  const record = (name: string, pay: 'free' | 'pool' | 'ordered', effect: 'plus2' | 'redraw', hostile: boolean, ref?: string) =>
    st.invoked.push({ side: me.side, name, pay, effect, hostile: pay !== 'free' && hostile, ...(ref ? { ref } : {}), exchange: st.exchange });
  const payFor = (p: Paid) => {
    if (p.ordered) p.ordered.ordered--;
    else pool.spent++;
  };
  const who = me.side === check.defending ? 'the defence ' : '';
  if (st.naive?.[me.side]) return naively(st, me, free, need, redraw, who, record);
  for (let guard = 0; guard < 24; guard++) {
    const clean = need();
    if (clean <= 0) break;
    const plusFree = free.filter((f) => !f.redrawOnly);
    const plusPaid = paid.filter((p) => !p.redrawOnly && canPay(p));
    const paidReach = plusPaid.filter((p) => p.ordered).length + Math.min(plusPaid.filter((p) => !p.ordered).length, pool.pool - pool.spent);
    // A clean success if the +2s reach it; else, where a tie succeeds at a cost (lines 161, 169), the tie.
    const tie = tieNeed?.();
    const reach = 2 * (plusFree.length + paidReach);
    const n = reach >= clean || tie === undefined ? clean : tie;
    if (n <= 0) break;
    if (reach >= n) {
      for (let k = 0; k < Math.ceil(n / 2); k++) {
        const f = plusFree.shift();
        if (f) {
          f.use();
          free.splice(free.indexOf(f), 1);
          record(f.name, 'free', 'plus2', f.hostile, f.ref);
          words.push(`${who}invoked ${f.name} for +2`);
        } else {
          const p = plusPaid.find(canPay)!;
          plusPaid.splice(plusPaid.indexOf(p), 1);
          paid.splice(paid.indexOf(p), 1);
          payFor(p);
          record(p.name, p.ordered ? 'ordered' : 'pool', 'plus2', p.hostile, p.ref);
          words.push(`${who}invoked ${p.name} with a fate point for +2`);
        }
        me.plus += 2;
      }
      continue;
    }
    // The +2s cannot turn it: another card, if it has a fair chance with what is left (a passive opposition draws none).
    if (opts.plusOnly) break;
    const pluses = 2 * (plusFree.length + paidReach);
    const source = me.commander.boosts > 0 ? 'boost' : free.length ? 'free' : paid.some(canPay) ? 'paid' : undefined;
    if (!source) break;
    const left = source === 'boost' ? pluses : source === 'free' ? pluses - (free[0]!.redrawOnly ? 0 : 2) : pluses - 2;
    if (atLeast(me.card + n - Math.max(0, left)) < REDRAW_ODDS) break;
    if (source === 'boost') {
      me.commander.boosts--;
      me.card = redraw();
      words.push(`${who === '' ? '' : 'the defence '}spent a minor advantage and drew again: ${sgn(me.card)}`);
    } else if (source === 'free') {
      const f = free.shift()!;
      f.use();
      record(f.name, 'free', 'redraw', f.hostile, f.ref);
      me.card = redraw();
      words.push(`${who}invoked ${f.name} to draw again: ${sgn(me.card)}`);
    } else {
      const p = paid.find(canPay)!;
      paid.splice(paid.indexOf(p), 1);
      payFor(p);
      record(p.name, p.ordered ? 'ordered' : 'pool', 'redraw', p.hostile, p.ref);
      me.card = redraw();
      words.push(`${who}invoked ${p.name} with a fate point to draw again: ${sgn(me.card)}`);
    }
  }
  return words;
}

const sgn = (n: number) => (n === 0 ? '+0' : signed(n));

/**
 * The naive commander, the yardstick of the automated one (W13): behind, it
 * spends a minor advantage on another card whatever the odds, then its free
 * invokes while it is behind, whether or not they can turn the check; it
 * never pays a fate point.
 */
function naively(st: WarState, me: CheckSide, free: Free[], need: () => number, redraw: () => number, who: string, record: (name: string, pay: 'free', effect: 'plus2', hostile: boolean, ref?: string) => void): string[] {
  const words: string[] = [];
  if (need() > 0 && me.commander.boosts > 0) {
    me.commander.boosts--;
    me.card = redraw();
    words.push(`${who}spent a minor advantage and drew again: ${sgn(me.card)}`);
  }
  for (const f of free) {
    if (need() <= 0 || f.redrawOnly) break;
    f.use();
    record(f.name, 'free', 'plus2', f.hostile, f.ref);
    me.plus += 2;
    words.push(`${who}invoked ${f.name} for +2`);
  }
  return words;
}

/**
 * Helpful and hindering aspects (seed 000 lines 81–83): each of the side's
 * nation's aspects that helps the skill of the check adds fortune, each that
 * hinders it misfortune (which cancels every fortune). Free, no fate point.
 */
export function luckOf(st: WarState, side: Side, skill: string): { fortune: number; misfortune: number; names: string[] } {
  const list = st.nationAspects[side];
  // An aspect of the nation's battles ("battle") works on every check its side makes in a Warfare battle.
  const helps = list.filter((a) => a.helps === skill || a.helps === 'battle');
  const hinders = list.filter((a) => a.hinders === skill || a.hinders === 'battle');
  return { fortune: helps.length, misfortune: hinders.length, names: [...helps, ...hinders].map((a) => a.name) };
}

