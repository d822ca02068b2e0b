import type { BattleSideView, BattleView, ForeignUnitView, NationView, OwnUnitView } from './types.js';

/**
 * The nation's report as data (`<nation>.yaml`): what the nation knows, once.
 * The view behind the text and HTML reports carries every fact several times
 * over, in the words the templates print: a unit's label beside its name,
 * type and id, its type's name, class, speed and bonuses on every unit of
 * that type, a nation's name beside its id wherever it appears, "+2" beside
 * 2, a battle's headline and outcome beside its sides and totals, and a
 * null, false or empty list for every field a template tests. At 1,000
 * nations that was 123 MB a turn, a quarter of the turn's bytes. The data
 * file keeps the facts and drops the repetition:
 *
 * - a field that is null or an empty list is left out;
 * - signed numbers ("+2") go, the number stays; a rating keeps its value and ladder word;
 * - own units keep their type's id; the type's name, class, speed and bonuses are
 *   written once under `unitTypes` (a unit's bonuses beyond its type's stay with it),
 *   and labels, the besieged settlement's name (its id stays) go;
 * - nations are named once, in `nations` (every nation met); elsewhere only their ids,
 *   and a nation mentioned but not listed there (the rebels) is named in `otherNations`;
 * - a battle's headline, kind in words and outcome in words go (kind, winner,
 *   totals and deficit stay); rolls and casualties keep their labels, which alone
 *   say what an enemy unit was;
 * - the hexes in sight are runs down each column ("4,0-16": column 4, rows 0 to 16).
 *
 * Everything else is the view as it is (docs/reports.md, "The nation's YAML").
 */
export function nationData(view: NationView): Record<string, unknown> {
  const { units, summary, sight } = view;
  const { unitTypes, units: ownUnits } = ownUnitsData(units);
  const listed = new Set(view.nations.map((n) => n.id));
  const otherNations: Record<string, string> = {};
  const named = <T extends { nation: string; nationName: string }>(x: T): Omit<T, 'nationName'> => {
    const { nationName, ...without } = x;
    if (!listed.has(x.nation) && x.nation !== view.nation.id) otherNations[x.nation] = nationName;
    return without;
  };
  const replaced: Partial<Record<keyof NationView, Record<string, unknown>>> = {
    summary: { summary: { ...summary, battles: summary.battles.map((b) => battleData(b, named)) } },
    units: { unitTypes, units: ownUnits },
    // The types' bonuses above already hold their class's.
    classRules: {},
    // The orders' tally in words, and the refusals counted again, are the tally said twice.
    glance: { glance: (({ ordersText: _t, ordersWords: _w, refused: _r, ...rest }) => rest)(view.glance) },
    externals: { externals: view.externals.map(named) },
    sight: {
      sight: {
        ...sight,
        hexes: hexRuns(sight.hexes),
        units: sight.units.map((u) => foreignUnitData(u, named)),
        settlements: sight.settlements.map(named),
        externals: sight.externals.map(named),
      },
    },
  };
  // In the view's order, each field replaced where it changes.
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view) as [string, unknown][]) {
    if (key === 'kind' || key === 'changes') continue;
    Object.assign(data, replaced[key as keyof NationView] ?? { [key]: value });
  }
  data.otherNations = sortedRecord(otherNations);
  return pruned(data) as Record<string, unknown>;
}

type Named = <T extends { nation: string; nationName: string }>(x: T) => Omit<T, 'nationName'>;

function sortedRecord(r: Record<string, string>): Record<string, string> | null {
  const keys = Object.keys(r).sort();
  return keys.length ? Object.fromEntries(keys.map((k) => [k, r[k]!])) : null;
}

interface UnitTypeData {
  name: string;
  class: string;
  speed: number;
  bonuses: string[];
}

/** A unit's own bonuses, as facts.ts words them: they follow its class's and type's. */
const TRAINED = ' (trained)';

/** A type's bonuses are those every unit of it has, in order, its units' own ("(trained)") left out. */
function ownUnitsData(units: readonly OwnUnitView[]): { unitTypes: Record<string, UnitTypeData>; units: Record<string, unknown>[] } {
  const shared = new Map<string, string[]>();
  for (const u of units) {
    const known = shared.get(u.type);
    const typeBonuses = u.bonuses.filter((b) => !b.endsWith(TRAINED));
    shared.set(u.type, known ? commonPrefix(known, typeBonuses) : typeBonuses);
  }
  const unitTypes: Record<string, UnitTypeData> = {};
  for (const u of [...units].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0))) {
    unitTypes[u.type] ??= { name: u.typeName, class: u.class, speed: u.speed, bonuses: shared.get(u.type) ?? [] };
  }
  const out = units.map((u) => {
    const { label: _label, typeName: _typeName, class: _class, speed: _speed, bonuses, ownBonuses: _ownBonuses, besieging: _besieging, ...unit } = u;
    return { ...unit, bonuses: bonuses.slice(shared.get(u.type)?.length ?? 0) };
  });
  return { unitTypes, units: out };
}

function commonPrefix(a: readonly string[], b: readonly string[]): string[] {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}

const BATTLE_WORDS = new Set(['kindText', 'headline', 'outcome']);

function battleData(b: BattleView, named: Named): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(b)) {
    if (BATTLE_WORDS.has(key)) continue;
    out[key] = key === 'attacker' || key === 'defender' ? named(value as BattleSideView) : value;
  }
  return out;
}

function foreignUnitData(u: ForeignUnitView, named: Named): Record<string, unknown> {
  const { label: _label, ...rest } = u;
  return named(rest);
}

/** "col,row" hexes, sorted by column then row, as runs down each column: "4,0-16", or "4,3" alone. */
export function hexRuns(hexes: readonly string[]): string[] {
  const cells = hexes.map((h) => h.split(',').map(Number) as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const runs: string[] = [];
  let i = 0;
  while (i < cells.length) {
    const [col, first] = cells[i]!;
    let last = first;
    while (i + 1 < cells.length && cells[i + 1]![0] === col && cells[i + 1]![1] === last + 1) last = cells[++i]![1];
    runs.push(first === last ? `${col},${first}` : `${col},${first}-${last}`);
    i++;
  }
  return runs;
}

/** The hexes a list of runs stands for (what hexRuns wrote), for tools and tests. */
export function hexesOfRuns(runs: readonly string[]): string[] {
  return runs.flatMap((run) => {
    const [col, rows] = run.split(',') as [string, string];
    const [from, to = from] = rows.split('-').map(Number) as [number, number?];
    return Array.from({ length: to - from + 1 }, (_, k) => `${col},${from + k}`);
  });
}

/**
 * Without null fields, empty lists and signed copies of numbers; a rating
 * ({value, signed, word, text}) keeps its value and word.
 */
function pruned(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruned);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  const rating = 'value' in record && 'signed' in record && 'word' in record && 'text' in record;
  for (const [key, v] of Object.entries(record)) {
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (key === 'signed' || (rating && key === 'text')) continue;
    out[key] = pruned(v);
  }
  return out;
}
