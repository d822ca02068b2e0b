import type { DiceStream, DieKind, Randomiser } from '../dice.js';
import type { DieRoll, FateDraw, LuckDraw } from '../events.js';
import type { NationId } from '../ids.js';
import type { FateSettings } from '../settings.js';
import { DECK, DECK_SIZE, FATE_FACES, faceValue, type Card, type FateFace } from './deck.js';

/**
 * The Fate randomisers (docs/rules.md F1–F6), laid over the seeded (or
 * forced) d6 streams: a d6 or d3 of the rules becomes base + a Fate result,
 * thrown on four Fate dice or drawn from the owner's Deck of Fate. Coins and
 * d100s (pursuit, event draws, revolts) are percentages, not ladder values,
 * and stay as they are.
 *
 * One pile per nation (F4, seed 000 line 17): every scope draws from its
 * nation's one draw pile, in the order the turn resolves them (T2: the phases
 * in order, everything inside a phase in sorted id order — never file order),
 * each card taken at random by the scope's own stream. So no card turns up
 * twice in a season until the pile runs out and the discards are shuffled
 * back; a battle's cards depend on (seed, turn, scope), the start-of-turn
 * deck and the scopes of the same nation that drew before it. Every card
 * drawn goes to the discard pile (`decksAfter`).
 */
export type StartDecks = (owner: NationId) => readonly number[] | undefined;

const WHOLE_DECK: readonly number[] = DECK.map((c) => c.id);
/** Deck draws made without an owner (none today) come from a campaign-wide deck under this key. */
const NO_OWNER = '';


/** One nation's deck for the turn: the draw pile left at the start of the turn, reshuffled whole once empty. */
class NationDeck {
  private pile: number[];
  reshuffled = false;
  readonly before: number[] = [];
  readonly after: number[] = [];

  constructor(discards: readonly number[] | undefined) {
    if (!discards?.length) this.pile = [...WHOLE_DECK];
    else {
      const out = new Set(discards);
      this.pile = WHOLE_DECK.filter((id) => !out.has(id));
      if (!this.pile.length) this.pile = [...WHOLE_DECK];
    }
  }

  /** Takes a card at random from the pile (a shuffle done one card at a time); an emptied pile takes back every card. */
  draw(uniform: () => number): Card {
    if (!this.pile.length) {
      // Reshuffled again within the turn: the discards start over once more.
      this.pile = [...WHOLE_DECK];
      this.reshuffled = true;
      this.after.length = 0;
    }
    const i = Math.floor(uniform() * this.pile.length);
    const id = this.pile[i]!;
    this.pile[i] = this.pile[this.pile.length - 1]!;
    this.pile.pop();
    (this.reshuffled ? this.after : this.before).push(id);
    return DECK[id]!;
  }
}

const clampResult = (n: number) => Math.max(-4, Math.min(4, Math.round(n)));

export class FateLayer implements Randomiser {
  /** Each owner's one deck this turn, for the draws and the end-of-turn discards. */
  private readonly decks = new Map<string, NationDeck>();

  constructor(
    private readonly base: Randomiser,
    private readonly settings: FateSettings,
    private readonly startDecks: StartDecks,
  ) {}

  stream(scope: string): DiceStream {
    const b = this.base.stream(scope);
    const { randomiser } = this.settings;
    const deckOf = (owner: NationId | undefined): NationDeck => {
      const key = owner ?? NO_OWNER;
      let d = this.decks.get(key);
      if (!d) {
        d = new NationDeck(owner === undefined ? undefined : this.startDecks(owner));
        this.decks.set(key, d);
      }
      return d;
    };
    const throwDice = (n: number): FateFace[] => Array.from({ length: n }, () => FATE_FACES[Math.floor(b.uniform() * 3)]!);

    const roll = (die: DieKind, owner?: NationId): DieRoll => {
      if (die !== 'd6' && die !== 'd3') return b.roll(die);
      const base = this.settings.base[die];
      const kind = randomiser === 'deck' ? 'card' : '4dF';
      const forced = b.forced?.();
      if (forced !== undefined) {
        // A forced value in a Fate campaign is the Fate result itself (-4..+4), the card or dice unseen.
        const result = clampResult(forced);
        return { die: kind, value: base + result, forced: true, fate: { replaces: die, base, result } };
      }
      let fate: FateDraw;
      if (randomiser === 'deck') {
        const card = deckOf(owner).draw(b.uniform);
        fate = { replaces: die, base, result: card.result, card: card.id, ...(owner !== undefined ? { deck: owner } : {}) };
      } else {
        const faces = throwDice(4);
        fate = { replaces: die, base, result: faces.reduce((s, f) => s + faceValue(f), 0), faces };
      }
      return { die: kind, value: base + fate.result, fate };
    };

    const luck = (kind: LuckDraw['kind'], owner?: NationId): LuckDraw => {
      const forced = b.forced?.();
      if (forced !== undefined) {
        const n = Math.max(0, Math.min(4, Math.abs(Math.round(forced))));
        return { kind, delta: kind === 'fortune' ? n : -n, forced: true };
      }
      if (randomiser === 'deck') {
        // Seed 000 lines 24–28: suns for fortune, moons for misfortune, an eclipse four either way.
        const card = deckOf(owner).draw(b.uniform);
        const n = card.eclipse ? 4 : kind === 'fortune' ? card.suns : card.moons;
        return { kind, delta: kind === 'fortune' ? n : -n, card: card.id, ...(owner !== undefined ? { deck: owner } : {}), ...(card.eclipse ? { eclipse: true } : {}) };
      }
      // Seed 000 line 150: three extra dice, only pluses count (fortune) or only minuses (misfortune).
      const faces = throwDice(3);
      const n = faces.filter((f) => f === (kind === 'fortune' ? '+' : '-')).length;
      return { kind, delta: kind === 'fortune' ? n : -n, faces };
    };

    return { roll, luck, uniform: b.uniform, ...(b.forced ? { forced: b.forced } : {}) };
  }

  /**
   * Each nation's discard pile after the turn: the start-of-turn discards and
   * every card any scope drew from them. A turn that emptied the draw pile
   * (some scope had to reshuffle) leaves only the cards drawn after the
   * reshuffle, or a full deck. Nations whose deck nobody drew from are not
   * listed.
   */
  decksAfter(): Map<NationId, number[]> {
    const out = new Map<NationId, number[]>();
    for (const [key, d] of this.decks) {
      if (key === NO_OWNER) continue;
      const owner = key as NationId;
      // Before a reshuffle: the start's discards and every card drawn; after one, only the cards drawn since.
      const discards = d.reshuffled ? new Set(d.after) : new Set<number>([...(this.startDecks(owner) ?? []), ...d.before]);
      out.set(owner, discards.size >= DECK_SIZE ? [] : [...discards].sort((a, b) => a - b));
    }
    return out;
  }
}

/** The total a set of fortune and misfortune sources adds: any misfortune cancels all fortune (seed 000 line 26). */
export function drawLuck(stream: DiceStream, sources: { fortune: number; misfortune: number }, owner?: NationId): LuckDraw[] {
  if (sources.misfortune > 0) return Array.from({ length: sources.misfortune }, () => stream.luck('misfortune', owner));
  return Array.from({ length: sources.fortune }, () => stream.luck('fortune', owner));
}
