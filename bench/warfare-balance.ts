/**
 * The balance of the Warfare battle mode (docs/rules.md W14), measured on
 * armies the rules allow: each side two generals (Command and Tactics +3),
 * each leading three units — at most max(Command, 3) a commander (seed 001
 * line 139); the stronger side's first general has Command +4 and leads one
 * more infantry. For each matchup the attacker's wins over N seeded battles
 * (the Deck of Fate, each battle its own stream), with the Wilson 95%
 * interval.
 *
 *   npm run build && node dist/bench/warfare-balance.js [N] [--no-prepare]
 *
 * --no-prepare: the attacker marches straight in, as before prepare became
 * the default plan (W14).
 */
import { FateLayer } from '../src/core/fate/layer.js';
import { SeededRandomiser } from '../src/core/dice.js';
import { asNationId } from '../src/core/ids.js';
import { DEFAULT_RULES } from '../src/core/settings.js';
import { defaultBattlefield } from '../src/core/warfare/battlefield.js';
import { runBattle, type WarfareBattle } from '../src/core/warfare/battle.js';
import { catalogue } from '../src/core/warfare/catalogue.js';
import { DEFAULT_PLANS, type BattlePlan } from '../src/core/warfare/commander.js';
import type { Side } from '../src/core/warfare/types.js';

export const MATCHUPS: Record<string, string[]> = {
  infantry: ['infantry', 'infantry', 'infantry'],
  cavalry: ['cavalry', 'cavalry', 'cavalry'],
  archers: ['infantry', 'infantry', 'archers'],
  mixed: ['infantry', 'archers', 'cavalry'],
};

const START: Record<Side, [string, string]> = { attacker: ['z4,0', 'z4,2'], defender: ['z0,1', 'z1,1'] };

/** Two generals a side, each leading the army's three units; `extra` more infantry under the first (Command +4). */
export function legalForces(attacker: string[], defender: string[], extra: Partial<Record<Side, number>> = {}, id = 'balance'): WarfareBattle {
  const commanders: WarfareBattle['commanders'] = [];
  const units: WarfareBattle['units'] = [];
  for (const [side, army, nation] of [
    ['attacker', attacker, 'red'],
    ['defender', defender, 'blue'],
  ] as const) {
    START[side].forEach((zone, i) => {
      const cid = `${nation}-${i + 1}`;
      const more = i === 0 ? (extra[side] ?? 0) : 0;
      commanders.push({ id: cid, name: `${nation} general ${i + 1}`, side, zone, skills: { command: 3 + more, tactics: 3 } });
      [...army, ...Array<string>(more).fill('infantry')].forEach((type, j) => units.push({ id: `${cid}-${j + 1}`, type, commander: cid }));
    });
  }
  return { id, nations: { attacker: asNationId('red'), defender: asNationId('blue') }, field: defaultBattlefield(), commanders, units };
}

const stream = (seed: string) => new FateLayer(new SeededRandomiser(seed, 1), { ...DEFAULT_RULES.fate, randomiser: 'deck' }, () => undefined).stream('warfare:balance');

/** The attacker's wins over n seeds. */
export function attackerWins(b: () => WarfareBattle, n: number, plans?: Partial<Record<Side, BattlePlan>>): number {
  const cat = catalogue();
  let wins = 0;
  for (let i = 0; i < n; i++) {
    const battle = b();
    if (plans) battle.plans = plans;
    if (runBattle(battle, cat, stream(`balance ${i}`), 'deck').winner === 'attacker') wins++;
  }
  return wins;
}

/** The Wilson score interval at 95% for k successes in n. */
export function wilson(k: number, n: number): [number, number] {
  const z = 1.959964;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [centre - half, centre + half];
}

function main(): void {
  const args = process.argv.slice(2);
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 2000);
  const prepare = !args.includes('--no-prepare');
  const plans = prepare ? undefined : { attacker: { ...DEFAULT_PLANS.attacker, prepare: false } };
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const rows: string[] = [];
  for (const [name, army] of Object.entries(MATCHUPS)) {
    for (const [label, extra] of [
      ['equal', {}],
      ['attacker +1', { attacker: 1 }],
      ['defender +1', { defender: 1 }],
    ] as const) {
      const k = attackerWins(() => legalForces(army, army, extra), n, plans);
      const [lo, hi] = wilson(k, n);
      rows.push(`| ${name} | ${label} | ${k} / ${n} | ${pct(k / n)} | ${pct(lo)}–${pct(hi)} |`);
    }
  }
  console.log(`Attacker wins, ${n} seeds a row${prepare ? '' : ', rules.warfare.prepare off'}:`);
  console.log('| army (each general) | forces | attacker wins | share | 95% interval |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

if (process.argv[1]?.endsWith('warfare-balance.js')) main();
