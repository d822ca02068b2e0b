import type { Campaign, NationDefinition, UnitType } from '../core/campaign.js';
import { asHexKey, asNationId, asUnitId, type NationId } from '../core/ids.js';
import { DEFAULT_RULES, type RuleSettings } from '../core/settings.js';
import { readRewardEffects } from './event-catalogue.js';
import type { FileProblem } from './problems.js';
import { pathText } from './problems.js';
import { rulesSchema, type CampaignFile } from './schema.js';
import { catalogue } from '../core/warfare/catalogue.js';

/**
 * Turns a validated campaign.yaml into the engine's Campaign: merges rule
 * overrides into the defaults, expands the map rows, gives every nation the
 * shared unit types, and checks every cross-reference.
 */
export function buildCampaign(file: CampaignFile, source: string): { campaign: Campaign; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ file: source, path, message });

  const mergedRules = deepMerge(DEFAULT_RULES, file.rules);
  const parsedRules = rulesSchema.safeParse(mergedRules);
  if (!parsedRules.success) {
    for (const issue of parsedRules.error.issues) problem(`rules.${pathText(issue.path)}`, issue.message);
  }
  const rules: RuleSettings = parsedRules.success ? parsedRules.data : DEFAULT_RULES;
  // Each class must fight as a unit type the Warfare catalogue has (docs/rules.md W15).
  const warUnits = catalogue(rules.warfare.catalogue).units;
  for (const nation of Object.keys(rules.warfare.lieutenants)) {
    if (!file.nations[nation]) problem(`rules.warfare.lieutenants.${nation}`, `no nation "${nation}" in this campaign`);
  }
  for (const [cls, type] of Object.entries(rules.warfare.types)) {
    if (!warUnits[type]) problem(`rules.warfare.types.${cls}`, `no unit type "${type}" in the Warfare catalogue; it has ${Object.keys(warUnits).sort().join(', ')}`);
  }
  if (!warUnits[rules.warfare.walls.siege]) problem('rules.warfare.walls.siege', `no unit type "${rules.warfare.walls.siege}" in the Warfare catalogue; it has ${Object.keys(warUnits).sort().join(', ')}`);
  if (!warUnits[rules.warfare.burn.unitType]) problem('rules.warfare.burn.unitType', `no unit type "${rules.warfare.burn.unitType}" in the Warfare catalogue; it has ${Object.keys(warUnits).sort().join(', ')}`);

  const { width, height, legend, rows } = file.map;
  const terrain: string[] = [];
  if (rows.length !== height) problem('map.rows', `there are ${rows.length} rows; map.height says ${height}`);
  rows.forEach((row, r) => {
    const cells = [...row];
    if (cells.length !== width) problem(`map.rows[${r}]`, `row ${r} has ${cells.length} hexes; map.width says ${width}`);
    cells.forEach((ch, c) => {
      const t = legend[ch];
      if (t === undefined) problem(`map.rows[${r}]`, `"${ch}" at ${c},${r} is not in map.legend`);
      else if (!rules.terrain[t]) problem(`map.legend`, `terrain "${t}" has no rule in rules.terrain`);
      terrain.push(t ?? 'unknown');
    });
  });
  const inMap = (h: string) => {
    const [c, r] = h.split(',').map(Number);
    return c !== undefined && r !== undefined && c < width && r < height;
  };
  for (const [i, res] of file.map.resources.entries()) if (!inMap(res.hex)) problem(`map.resources[${i}].hex`, `${res.hex} is off the map`);
  for (const [name, h] of Object.entries(file.map.places)) if (!inMap(h)) problem(`map.places.${name}`, `${h} is off the map`);

  const nations = {} as Record<NationId, NationDefinition>;
  for (const [nid, n] of Object.entries(file.nations)) {
    const unitTypes: Record<string, UnitType> = {};
    for (const [tid, t] of Object.entries({ ...file.unitTypes, ...n.unitTypes })) unitTypes[tid] = { id: tid, ...t };
    for (const [tid, t] of Object.entries(unitTypes)) {
      if (t.requiresStructure && !file.structures[t.requiresStructure]) problem(`nations.${nid}.unitTypes.${tid}.requiresStructure`, `no structure "${t.requiresStructure}"`);
      for (const e of t.canConstruct ?? []) if (!file.externals[e]) problem(`nations.${nid}.unitTypes.${tid}.canConstruct`, `no external structure "${e}"`);
      if (t.bonuses.length > rules.maxBonusKinds) problem(`nations.${nid}.unitTypes.${tid}.bonuses`, `at most ${rules.maxBonusKinds} kinds of bonus per unit`);
    }
    n.units.forEach((u, i) => {
      if (!unitTypes[u.type]) problem(`nations.${nid}.units[${i}].type`, `${nid} has no unit type "${u.type}" (has: ${Object.keys(unitTypes).join(', ')})`);
      if (!inMap(u.hex)) problem(`nations.${nid}.units[${i}].hex`, `${u.hex} is off the map`);
    });
    if (n.leaderAbility && !file.abilities[n.leaderAbility]) problem(`nations.${nid}.leaderAbility`, `no ability "${n.leaderAbility}" in abilities (has: ${Object.keys(file.abilities).join(', ') || 'none'})`);
    if (n.leaderUnit && !n.units.some((u) => u.id === n.leaderUnit)) problem(`nations.${nid}.leaderUnit`, `${nid} starts with no unit "${n.leaderUnit}" (has: ${n.units.map((u) => u.id).join(', ') || 'none'})`);
    n.settlements.forEach((s, i) => {
      if (!inMap(s.hex)) problem(`nations.${nid}.settlements[${i}].hex`, `${s.hex} is off the map`);
      for (const st of s.structures) if (!file.structures[st]) problem(`nations.${nid}.settlements[${i}].structures`, `no structure "${st}"`);
    });
    if (n.settlements.filter((s) => s.level === 'capital').length > 1) problem(`nations.${nid}.settlements`, 'a nation has at most one Capital');
    nations[asNationId(nid)] = {
      id: asNationId(nid),
      name: n.name,
      leader: n.leader,
      ability: n.ability,
      ...(n.leaderAbility ? { leaderAbility: n.leaderAbility } : {}),
      ...(n.leaderUnit ? { leaderUnit: asUnitId(n.leaderUnit) } : {}),
      unitTypes,
      caps: n.caps,
      ...(n.rebels ? { rebels: true } : {}),
      ...(n.breaksFrom ? { breaksFrom: asNationId(n.breaksFrom) } : {}),
      ...(n.unitNames?.length ? { unitNames: n.unitNames } : {}),
      goals: n.goals.map((g) => ({ ...g, reward: Array.isArray(g.reward) ? {} : g.reward, condition: g.condition.kind === 'control_hex' ? { kind: 'control_hex', hex: asHexKey(g.condition.hex) } : g.condition })) as NationDefinition['goals'],
    };
  }
  // A nation in waiting knows the unit types of the nation it breaks from: the units that follow it keep theirs.
  for (const [nid, n] of Object.entries(file.nations)) {
    if (n.breaksFrom === undefined) continue;
    const from = nations[asNationId(n.breaksFrom)];
    const own = nations[asNationId(nid)];
    if (!from || n.breaksFrom === nid) problem(`nations.${nid}.breaksFrom`, `no other nation "${n.breaksFrom}" in campaign.yaml to break from`);
    else if (from.breaksFrom || from.rebels) problem(`nations.${nid}.breaksFrom`, `${n.breaksFrom} is ${from.rebels ? 'the rebels' : 'itself a nation in waiting'}: a nation breaks from a nation in play`);
    else if (n.settlements.length || n.units.length || n.externals.length) problem(`nations.${nid}`, 'a nation in waiting (breaksFrom) starts with no settlements, units or externals: the civil war gives it its land');
    else if (own) own.unitTypes = { ...from.unitTypes, ...own.unitTypes };
  }

  const structures: Campaign['structures'] = {};
  for (const [sid, s] of Object.entries(file.structures)) {
    const fromTable = s.grants ? structureCostFromTable(s.grants.scope, Math.abs(s.grants.bonus.value)) : undefined;
    if (s.grants && !fromTable && (s.cost === undefined || s.turns === undefined)) {
      const top = s.grants.scope === 'circumstantial' ? CIRCUMSTANTIAL_TOP : GLOBAL_TOP;
      problem(`structures.${sid}`, `the rules' price table for ${s.grants.scope} bonuses stops at +${top}, and this structure grants +${Math.abs(s.grants.bonus.value)}: give it its own "cost" and "turns"`);
    }
    structures[sid] = { id: sid, ...s, cost: s.cost ?? fromTable?.cost ?? 0, turns: s.turns ?? fromTable?.turns ?? 1 };
  }
  const externals: Campaign['externals'] = {};
  for (const [eid, e] of Object.entries(file.externals)) externals[eid] = { id: eid, ...e };

  const seen = file.map.resources.filter((r) => !r.hidden);
  const hidden = file.map.resources.filter((r) => r.hidden);
  const campaign: Campaign = {
    name: file.name,
    title: file.title,
    seed: file.seed,
    calendar: file.calendar,
    map: {
      width,
      height,
      terrain,
      resources: seen.map(({ hex, kind, name }) => ({ hex: asHexKey(hex), kind, name })),
      ...(hidden.length ? { hiddenResources: hidden.map(({ hex, kind, name }) => ({ hex: asHexKey(hex), kind, name })) } : {}),
      // Resources are places too: players write "move worker to Silver vein" (hidden ones are no place anyone knows).
      places: Object.fromEntries([...seen.map((r) => [r.name, asHexKey(r.hex)] as const), ...Object.entries(file.map.places).map(([k, v]) => [k, asHexKey(v)] as const)]),
    },
    nations,
    structures,
    externals,
    rules,
    abilities: Object.fromEntries(Object.entries(file.abilities).map(([aid, a]) => [aid, { id: aid, ...a }])),
    succession: { abilities: file.succession?.abilities ?? Object.keys(file.abilities).sort() },
  };
  // Rewards written as effects are read once the campaign they name (unit types, structures) is whole.
  for (const [nid, n] of Object.entries(file.nations)) {
    n.goals.forEach((g, i) => {
      if (!Array.isArray(g.reward)) return;
      const goal = campaign.nations[asNationId(nid)]!.goals[i]!;
      const read = readRewardEffects(g.reward, ['nations', nid, 'goals', i, 'reward'], source, campaign);
      problems.push(...read.problems);
      goal.reward = read.reward;
      if (read.effects.length) goal.effects = read.effects;
    });
  }
  for (const [i, aid] of (file.succession?.abilities ?? []).entries()) if (!file.abilities[aid]) problem(`succession.abilities[${i}]`, `no ability "${aid}" in abilities`);
  checkStartingAspects(file, rules, inMap, problem);
  return { campaign, problems };
}

const CIRCUMSTANTIAL_TOP = 6;
const GLOBAL_TOP = 3;

/**
 * The rules' structure cost tables (F 74-87): circumstantial +1..+6 cost 10
 * each point (1 turn up to +3, 2 turns from +4); global +1..+3 cost 20 a point
 * (2 turns at +3). Beyond the tables there is no price: undefined, and the
 * campaign must give one (rules.md B1).
 */
export function structureCostFromTable(scope: 'circumstantial' | 'global', bonus: number): { cost: number; turns: number } | undefined {
  if (scope === 'circumstantial') return bonus <= CIRCUMSTANTIAL_TOP ? { cost: 10 * bonus, turns: bonus >= 4 ? 2 : 1 } : undefined;
  return bonus <= GLOBAL_TOP ? { cost: 20 * bonus, turns: bonus >= 3 ? 2 : 1 } : undefined;
}

function deepMerge<T>(base: T, override: unknown): T {
  if (override === undefined) return base;
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return override as T;
  if (typeof override !== 'object' || override === null || Array.isArray(override)) return override as T;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(override)) out[k] = deepMerge((base as Record<string, unknown>)[k], v);
  return out as T;
}

/** campaign.yaml's `aspects`: each on a nation, settlement or unit of the start sheets, or a hex of the map. */
function checkStartingAspects(file: CampaignFile, rules: RuleSettings, inMap: (h: string) => boolean, problem: (path: string, message: string) => void): void {
  if (!file.aspects?.length) return;
  if (!rules.fate.aspects) problem('aspects', 'aspects are off in this campaign: set rules.fate.aspects: true, or remove them');
  const nations = file.nations;
  const settlements = new Set(Object.values(nations).flatMap((n) => n.settlements.map((s) => s.id)));
  const units = new Set(Object.values(nations).flatMap((n) => n.units.map((u) => u.id)));
  file.aspects.forEach((a, i) => {
    const on = a.on;
    const at = `aspects[${i}].on`;
    if ('nation' in on && !nations[on.nation]) problem(at, `no nation "${on.nation}"`);
    if ('settlement' in on && !settlements.has(on.settlement)) problem(at, `no settlement "${on.settlement}" on the start sheets`);
    if ('unit' in on && !units.has(on.unit)) problem(at, `no unit "${on.unit}" on the start sheets`);
    if ('hex' in on && !inMap(on.hex)) problem(at, `${on.hex} is off the map`);
    if (a.owner && !nations[a.owner]) problem(`aspects[${i}].owner`, `no nation "${a.owner}"`);
  });
}
