import type { Campaign } from '../core/campaign.js';
import { perCampaign, perCampaignAndState } from '../core/memo.js';
import { hexKey, parseHex } from '../core/hex.js';
import type { ExternalId, HexKey, NationId, SettlementId, UnitId } from '../core/ids.js';
import type { ExternalState, GameState, UnitState } from '../core/state.js';
import { WorldIndex } from '../core/world-index.js';
import { didYouMean, editDistance, oneSpellingEach } from '../text/suggest.js';

/**
 * Resolves what players write — ids, names in any case, coordinates, place
 * names, unit types and structures by id or by name — to ids, for one
 * nation's point of view. Built once per order sheet.
 *
 * Secrecy: "did you mean" and "not yours" only ever name foreign units the
 * nation can see (within sight of its units and settlements), so a misspelt
 * order cannot be used to learn where hidden units are.
 */
export type Resolved<T> = { ok: true; value: T } | { ok: false; reason: string; hint?: string };

/** Already normal: no capitals, spaces, underscores or quotes (every id is). */
const NORMAL = /^[a-z0-9-]*$/;

/** Case, runs of spaces, and - _ between words do not matter in names. */
export const normName = (s: string) =>
  // Ids are most of what is indexed and written: they are their own normal form.
  NORMAL.test(s)
    ? s
    : s
        .trim()
        .replace(/^["“”]+|["“”]+$/g, '')
        .toLowerCase()
        .replace(/[\s_]+/g, ' ')
        .trim();

/** Type and structure ids are written with - or _ ("mortar-cannon"); players write "mortar cannon". */
const normKey = (s: string) => normName(s).replace(/[\s_-]+/g, ' ');

class Index<T> {
  private readonly byKey = new Map<string, T>();
  /** Display spellings, for suggestions. */
  readonly spellings: string[] = [];

  constructor(private readonly norm: (s: string) => string = normName) {}

  add(value: T, ...spellings: (string | undefined)[]): void {
    for (const s of spellings) {
      if (!s) continue;
      const k = this.norm(s);
      if (!this.byKey.has(k)) this.byKey.set(k, value);
      this.spellings.push(s);
    }
  }

  get(text: string): T | undefined {
    return this.byKey.get(this.norm(text));
  }

  /**
   * What a part of a name can stand for: the values whose name holds the written words whole and in order
   * ("Durga Flintbeard" or "Durga" for "Prospector Durga Flintbeard"), each with its spelling.
   */
  byPart(text: string): { value: T; spelling: string }[] {
    const want = this.norm(text).split(' ').filter(Boolean);
    if (want.length === 0 || want.join(' ').length < 3 || want.length > 8) return [];
    const found = new Map<T, string>();
    for (const spelling of this.spellings) {
      const words = this.norm(spelling).split(' ');
      if (words.length <= want.length || found.has(this.byKey.get(this.norm(spelling)) as T)) continue;
      if (holdsRun(words, want)) found.set(this.byKey.get(this.norm(spelling)) as T, spelling);
    }
    return [...found].map(([value, spelling]) => ({ value, spelling }));
  }

  /** Spellings sharing a word with the text (a first name, a title), closest first: for "did you mean". */
  sharingAWord(text: string): string[] {
    // Words only: ids ("argenta-2") are never near one another in any useful sense.
    const want = [...new Set(this.norm(text).split(' ').filter((w) => w.length >= 3 && !/\d/.test(w)))];
    if (want.length === 0) return [];
    return this.spellings.filter((s) => this.norm(s).split(' ').some((w) => !/\d/.test(w) && want.some((x) => x === w || (x.length >= 4 && editDistance(x, w) <= 1))));
  }
}

function holdsRun(words: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= words.length; i++) if (run.every((w, k) => words[i + k] === w)) return true;
  return false;
}

/** The unit a part of its name stands for, when only one fits; a problem naming them all when several do. */
function partOf<T>(text: string, ...indexes: Index<T>[]): Resolved<T> | undefined {
  const found = new Map<T, string>();
  for (const index of indexes) for (const { value, spelling } of index.byPart(text)) if (!found.has(value)) found.set(value, spelling);
  if (found.size === 1) return { ok: true, value: [...found.keys()][0] as T };
  if (found.size === 0) return undefined;
  const names = [...found.values()].sort().slice(0, 5);
  return { ok: false, reason: `"${clip(text)}" could be ${names.map((n) => `"${n}"`).join(' or ')}${found.size > 5 ? ' or others' : ''}`, hint: 'write more of the name, or the unit\'s id' };
}

/** "Did you mean": close spellings, else names sharing a word with what was written. */
function suggest<T>(text: string, ...indexes: Index<T>[]): string | undefined {
  const close = didYouMean(text, indexes.flatMap((i) => i.spellings));
  if (close) return close;
  const sharing = oneSpellingEach(indexes.flatMap((i) => i.sharingAWord(text))).slice(0, 3);
  return sharing.length ? `did you mean ${sharing.map((n) => `"${n}"`).join(' or ')}?` : undefined;
}

/** Names that are the same for every nation: settlements, places, structures. Built once per state. */
class WorldNames {
  readonly settlements = new Index<SettlementId>();
  readonly places = new Index<HexKey>();
  readonly structures = new Index<string>(normKey);
  readonly externals = new Index<string>(normKey);

  constructor(campaign: Campaign, state: GameState) {
    for (const s of Object.values(state.settlements)) this.settlements.add(s.id, s.id, s.name);
    for (const [name, hex] of Object.entries(campaign.map.places)) this.places.add(hex, name);
    for (const st of Object.values(campaign.structures)) this.structures.add(st.id, st.id, st.name);
    for (const e of Object.values(campaign.externals)) this.externals.add(e.id, e.id, e.name);
  }

  private static readonly made = perCampaignAndState((campaign, state) => new WorldNames(campaign, state));

  static of(campaign: Campaign, state: GameState): WorldNames {
    return WorldNames.made(campaign, state);
  }
}

/** Words that name any external structure ("attack the structure at 9,4"). */
const GENERIC_STRUCTURE = new Set(['structure', 'external structure', 'external', 'site', 'building']);

const byId = (a: UnitState, b: UnitState) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class NameBook {
  private readonly ownUnits = new Index<UnitId>();
  private seen?: Index<UnitId>;
  private readonly unitTypes = new Index<string>(normKey);
  private readonly world: WorldNames;
  private readonly index: WorldIndex;

  constructor(
    private readonly campaign: Campaign,
    private readonly state: GameState,
    readonly nation: NationId,
  ) {
    // Everything here is per nation and comes from shared indexes, so a
    // thousand order sheets cost a thousand small look-ups, not a thousand scans.
    this.index = WorldIndex.of(campaign, state);
    this.world = WorldNames.of(campaign, state);
    for (const u of [...this.index.unitsOf(nation)].sort(byId)) this.ownUnits.add(u.id, u.id, u.name);
    for (const t of Object.values(campaign.nations[nation]?.unitTypes ?? {})) this.unitTypes.add(t.id, t.id, t.name);
  }

  /**
   * Foreign units this nation can see; the only foreign units an order can
   * name. Made when an order first names a unit not the nation's own: a
   * nation sees hundreds of units and most sheets name none of them.
   */
  private get seenUnits(): Index<UnitId> {
    if (!this.seen) {
      this.seen = new Index<UnitId>();
      for (const u of this.index.foreignUnitsSeenBy(this.nation)) this.seen.add(u.id, u.id, u.name);
    }
    return this.seen;
  }

  private get settlements() {
    return this.world.settlements;
  }

  private get places() {
    return this.world.places;
  }

  private get structures() {
    return this.world.structures;
  }

  private get externals() {
    return this.world.externals;
  }

  ownUnit(text: string): Resolved<UnitId> {
    const id = this.ownUnits.get(text);
    if (id) return { ok: true, value: id };
    if (this.seenUnits.get(text)) return { ok: false, reason: `"${clip(text)}" is not one of your units` };
    const part = partOf(text, this.ownUnits);
    if (part) return part;
    return { ok: false, reason: `you have no unit "${clip(text)}"`, ...hint(suggest(text, this.ownUnits) ?? this.unitList()) };
  }

  /** "your units are: argenta-1 (Iron Guard), argenta-2, …", for a name that matches nothing. */
  private unitList(): string | undefined {
    const units = [...this.index.unitsOf(this.nation)]
      .sort((a, b) => naturalCompare(a.id, b.id))
      .map((u) => (u.name ? `${u.id} (${u.name})` : u.id));
    if (!units.length) return 'you have no units';
    return `your units are: ${units.slice(0, 12).join(', ')}${units.length > 12 ? ', …' : ''}`;
  }

  /**
   * A unit or a settlement: attack and defend targets may be either. Only
   * the nation's own units and those it sees resolve; a hidden unit reads
   * exactly like one that does not exist.
   */
  target(text: string): Resolved<{ unit: UnitId } | { settlement: SettlementId } | { external: ExternalId }> {
    const s = this.settlements.get(text);
    if (s) return { ok: true, value: { settlement: s } };
    const structure = this.structureTarget(text);
    if (structure?.ok) return structure;
    const u = this.ownUnits.get(text) ?? this.seenUnits.get(text);
    if (u) return { ok: true, value: { unit: u } };
    // Written like a structure ("the mine at 9,4") and no unit is called so: say why no structure was found.
    if (structure) return structure;
    const part = partOf(text, this.ownUnits, this.seenUnits);
    if (part) return part.ok ? { ok: true, value: { unit: part.value } } : part;
    return {
      ok: false,
      reason: `no unit or settlement "${clip(text)}"`,
      ...hint(didYouMean(text, [...this.ownUnits.spellings, ...this.seenUnits.spellings, ...this.settlements.spellings]) ?? suggest(text, this.ownUnits, this.seenUnits)),
    };
  }

  /**
   * An external structure as a target: by its id ("x12"), or by what and where it is ("the mine at 9,4",
   * "structure at 9,4"). Only the nation's own and those in sight resolve; a hidden one reads like none.
   * Undefined when the text names no structure at all, so units and settlements are tried next.
   */
  structureTarget(text: string): Resolved<{ external: ExternalId }> | undefined {
    const visible = (e: ExternalState) => e.nation === this.nation || this.index.sees(this.nation, e.hex);
    const byId = this.state.externals[text.trim() as ExternalId];
    if (byId) return visible(byId) ? { ok: true, value: { external: byId.id } } : { ok: false, reason: `you see no structure ${clip(text)}` };
    const m = /^(?:(?:the|a|an)\s+)?(.+?)\s+(?:at|on|in)\s+(.+)$/i.exec(text.trim());
    if (!m) return undefined;
    const what = normKey(m[1] as string);
    const type = GENERIC_STRUCTURE.has(what) ? undefined : this.externals.get(what);
    if (!type && !GENERIC_STRUCTURE.has(what)) return undefined;
    const hex = this.hex(m[2] as string);
    if (!hex.ok) return hex;
    const found = (this.index.externalsByHex.get(hex.value) ?? []).filter((e) => visible(e) && (!type || e.type === type));
    const name = type ? (this.campaign.externals[type]?.name ?? type) : 'structure';
    if (found.length === 0) return { ok: false, reason: `you see no ${name} at ${hex.value}`, hint: 'name a mine or dig site that stands where you have units or settlements nearby' };
    return { ok: true, value: { external: (found[0] as ExternalState).id } };
  }

  settlement(text: string): Resolved<SettlementId> {
    const s = this.settlements.get(text);
    if (s) return { ok: true, value: s };
    return { ok: false, reason: `no settlement "${clip(text)}"`, ...hint(didYouMean(text, this.settlements.spellings)) };
  }

  unit(text: string): Resolved<UnitId> {
    const u = this.seenUnits.get(text) ?? this.ownUnits.get(text);
    if (u) return { ok: true, value: u };
    const part = partOf(text, this.seenUnits, this.ownUnits);
    if (part) return part;
    return { ok: false, reason: `no unit "${clip(text)}" in sight`, ...hint(suggest(text, this.seenUnits, this.ownUnits)) };
  }

  hex(text: string): Resolved<HexKey> {
    const bare = text.trim().replace(/^[([]\s*(.*?)\s*[)\]]$/, '$1');
    const at = parseHex(bare);
    if (at) {
      const { width, height } = this.campaign.map;
      if (at.col < 0 || at.row < 0 || at.col >= width || at.row >= height) {
        return { ok: false, reason: `${at.col},${at.row} is off the map`, hint: `the map runs from 0,0 to ${width - 1},${height - 1}` };
      }
      return { ok: true, value: hexKey(at.col, at.row) };
    }
    const place = this.places.get(bare);
    if (place) return { ok: true, value: place };
    const s = this.settlements.get(bare);
    const settlement = s ? this.state.settlements[s] : undefined;
    if (settlement) return { ok: true, value: settlement.hex };
    return {
      ok: false,
      reason: `"${clip(text)}" is not a hex ("col,row", e.g. 12,7) or a known place`,
      ...hint(didYouMean(bare, [...this.places.spellings, ...this.settlements.spellings])),
    };
  }

  /** One of the nation's unit types, by id ("marines") or name ("Mortar Cannon"). */
  unitType(text: string): Resolved<string> {
    const t = this.unitTypes.get(text);
    if (t) return { ok: true, value: t };
    const asStructure = this.structures.get(text);
    if (asStructure) return { ok: false, reason: `"${clip(text)}" is a structure, not a unit type`, hint: `write "build structure ${asStructure} in <settlement>"` };
    const ids = Object.keys(this.campaign.nations[this.nation]?.unitTypes ?? {}).sort();
    return { ok: false, reason: `your nation has no unit type "${clip(text)}"`, hint: didYouMean(text, this.unitTypes.spellings) ?? `you can build: ${ids.join(', ')}` };
  }

  /** A structure built inside settlements, by id or name. */
  structure(text: string): Resolved<string> {
    const s = this.structures.get(text);
    if (s) return { ok: true, value: s };
    const ids = Object.keys(this.campaign.structures).sort();
    return { ok: false, reason: `there is no structure "${clip(text)}"`, hint: didYouMean(text, this.structures.spellings) ?? `structures are: ${ids.join(', ') || '(none in this campaign)'}` };
  }

  /** A structure out in the world (mine, dig site), by id or name. */
  external(text: string): Resolved<string> {
    const e = this.externals.get(text);
    if (e) return { ok: true, value: e };
    const ids = Object.keys(this.campaign.externals).sort();
    return { ok: false, reason: `there is no external structure "${clip(text)}"`, hint: didYouMean(text, this.externals.spellings) ?? `external structures are: ${ids.join(', ') || '(none in this campaign)'}` };
  }
}

/**
 * A nation by id or name ("argenta", "Duchy of Argenta"); undefined when there is none. With `rebels: false`,
 * the rebels are no nation to find (a letter, a trade or an action cannot be addressed to them).
 */
export function findNation(campaign: Campaign, text: string, opts: { rebels?: boolean } = {}): NationId | undefined {
  const { all, playable } = nationsByName(campaign);
  return (opts.rebels === false ? playable : all).get(normName(text));
}

/** Every nation's id and name, normalised, with and without the rebels: the first nation in the campaign's order that has it wins. */
const nationsByName = perCampaign((campaign: Campaign) => {
  const all = new Map<string, NationId>();
  const playable = new Map<string, NationId>();
  for (const n of Object.values(campaign.nations)) {
    for (const key of [normName(n.id), normName(n.name)]) {
      if (!all.has(key)) all.set(key, n.id);
      if (!n.rebels && !playable.has(key)) playable.set(key, n.id);
    }
  }
  return { all, playable };
});

/** Echoed names are clipped so a pasted novel does not come back whole in a receipt. */
export function clip(text: string, max = 60): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** "argenta-2" before "argenta-10": digit runs compare as numbers. Locale-free, so results never depend on the machine. */
export function naturalCompare(a: string, b: string): number {
  const pa = a.split(/(\d+)/);
  const pb = b.split(/(\d+)/);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (x === y) continue;
    if (i % 2 === 1) return Number(x) - Number(y) || (x < y ? -1 : 1);
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

const hint = (h: string | undefined) => (h ? { hint: h } : {});

