#!/usr/bin/env node
/**
 * Fatecraft against Atlantis (the C++ PBEM, github.com/Atlantis-PBEM/Atlantis, its `standard` game), per
 * faction, in one sitting (docs/benchmarks.md, "Against Atlantis"):
 *
 *   node scripts/atlantis-bench.mjs prepare --atlantis <path to the built `standard`> --dir <dir> --factions 1000 --units 1
 *   node scripts/atlantis-bench.mjs pair --game <prepared dir> --campaign <fatecraft campaign> [--runs 5]
 *
 * `prepare` makes an Atlantis game (the standard ruleset's fixed 64×64 surface), adds the factions, each
 * placed on a land hex (`Faction: new x y 1` in players.in; hexes shared when there are more factions than
 * land), runs the turn that creates them, then gives each faction units-1 more units in its start hex
 * through the game's own editor (`standard edit`, a leader each), and writes every faction an orders
 * file: each unit moves one hex in a direction picked by a seeded stream, every third one works. What
 * `pair` times is the next turn: `standard run` (orders read, the month resolved, a report and an order
 * template written per faction, the game saved).
 *
 * `pair` runs that turn and `fatecraft turn --expect 1` on fresh copies, alternating which goes first,
 * each timed by /usr/bin/time (wall, user + system CPU, peak RSS), and prints each pair's
 * fatecraft/Atlantis ratio and the medians. Both games must have the same number of factions: the
 * figure per faction is the same ratio. It first waits a minute after its deletions (`--no-settle` not to),
 * and leaves its runs in <game>.runs until the next `pair` of that game.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};

/** A small seeded stream (mulberry32), so two preparations give the same orders. */
function stream(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function atlantis(binary, dir, command, input = '') {
  const out = spawnSync(binary, command, { cwd: dir, input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(`${binary} ${command.join(' ')} exited with ${out.status}: ${(out.stdout + out.stderr).slice(-2000)}`);
  return out.stdout;
}

/** The turn's outputs become the next turn's inputs, as a GM does between turns. */
function advance(dir) {
  renameSync(join(dir, 'game.out'), join(dir, 'game.in'));
  renameSync(join(dir, 'players.out'), join(dir, 'players.in'));
}

function prepare() {
  const binary = resolve(arg('--atlantis'));
  const dir = resolve(arg('--dir'));
  const factions = Number(arg('--factions', '1000'));
  const units = Number(arg('--units', '1'));
  const random = stream(Number(arg('--seed', '37')));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  atlantis(binary, dir, ['new']);
  advance(dir);

  // Land hexes of the surface, from the game's own map export.
  atlantis(binary, dir, ['map', 'hex', 'map.json']);
  const map = JSON.parse(readFileSync(join(dir, 'map.json'), 'utf8'));
  const land = map.surface.filter((h) => h.terrain !== 'ocean' && h.terrain !== 'lake');
  if (!land.length) throw new Error('no land on the surface');
  const step = land.length / Math.min(factions, land.length);
  const starts = Array.from({ length: factions }, (_, i) => land[Math.floor((i % land.length) * step) % land.length]);

  const players = readFileSync(join(dir, 'players.in'), 'utf8').trimEnd();
  const added = starts.map((h, i) => `Faction: new ${h.x} ${h.y} 1\nName: Bench ${i + 1}\nEmail: NoAddress\nPassword: bench\n`).join('');
  writeFileSync(join(dir, 'players.in'), `${players}\n${added}`);
  atlantis(binary, dir, ['run']);
  advance(dir);

  // The player factions and their first unit, from the reports of the turn that made them.
  const leaders = new Map();
  for (const file of readdirSync(dir)) {
    const m = /^report\.(\d+)$/.exec(file);
    if (!m || Number(m[1]) < 3) continue;
    const unit = /^\* .*?\((\d+)\)/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (unit) leaders.set(Number(m[1]), Number(unit[1]));
  }
  const factionNums = [...leaders.keys()].sort((a, b) => a - b);
  // Monsters in a start hex may kill a new faction's only leader in the turn that makes it (the game then
  // reports it eliminated): the game goes on with the survivors, and the campaign to pair it with has as many.
  if (!factionNums.length) throw new Error('no player faction survived its first turn');
  if (factionNums.length !== factions) console.log(`${factions - factionNums.length} of ${factions} factions were eliminated by monsters in their first turn; the game has ${factionNums.length}: pair it with a fatecraft campaign of ${factionNums.length} nations.`);
  for (const file of readdirSync(dir)) if (/^(report|template|times)\./.test(file)) rmSync(join(dir, file));

  // More units through the GM's editor: each a leader of its faction in its start hex. The editor
  // prints "Unit: <name> (<number>)" as it opens each new unit; those numbers are the units' own.
  const unitsOf = new Map(factionNums.map((f) => [f, [leaders.get(f)]]));
  if (units > 1) {
    let script = '';
    const owners = [];
    factionNums.forEach((f, i) => {
      const h = starts[i];
      for (let u = 1; u < units; u++) {
        script += `3\n3\n${h.x} ${h.y} 1\n4\nf ${f}\nq\nq\n`;
        owners.push(f);
      }
    });
    const made = [];
    for (const m of atlantis(binary, dir, ['edit'], `${script}x\n`).matchAll(/^Unit: .*\((\d+)\)$/gm)) if (made.at(-1) !== Number(m[1])) made.push(Number(m[1]));
    if (made.length !== owners.length) throw new Error(`the editor made ${made.length} units, not ${owners.length}`);
    made.forEach((u, i) => unitsOf.get(owners[i]).push(u));
    renameSync(join(dir, 'game.out'), join(dir, 'game.in'));
  }

  const directions = ['N', 'NE', 'SE', 'S', 'SW', 'NW'];
  for (const f of factionNums) {
    const lines = [`#atlantis ${f} "bench"`];
    for (const u of unitsOf.get(f)) {
      lines.push(`unit ${u}`);
      lines.push(random() < 1 / 3 ? 'work' : `move ${directions[Math.floor(random() * 6)]}`);
    }
    lines.push('#end', '');
    writeFileSync(join(dir, `orders.${f}`), lines.join('\n'));
  }
  console.log(`Prepared ${dir}: ${factionNums.length} factions × ${units} units, orders written; \`standard run\` there is the turn to time.`);
}

/** One command under /usr/bin/time: wall, CPU (user + system) and peak memory. */
function timed(command, cwd) {
  const out = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', ...command], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(`${command.join(' ')} exited with ${out.status}: ${out.stderr.slice(-2000)}`);
  const [wall, user, sys, kb] = /TIME (\S+) (\S+) (\S+) (\S+)/.exec(out.stderr).slice(1).map(Number);
  return { wall, cpu: user + sys, mib: kb / 1024 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const spread = (xs) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;

function pair() {
  const game = resolve(arg('--game'));
  const campaign = resolve(arg('--campaign'));
  const runs = Number(arg('--runs', '5'));
  const binary = resolve(arg('--atlantis', join(game, '..', 'standard')));
  const cli = join(fileURLToPath(import.meta.url), '..', '..', 'dist', 'fatecraft', 'main.js');
  if (!existsSync(cli)) throw new Error('build first: npm run build');
  const work = `${game}.runs`;
  // On ext4 without a journal (this VM's disk) a new file skips every inode freed in the last minute, one
  // inode-table read each: right after deleting a run's thousands of files (the last series' runs, removed
  // here, or the reports `prepare` clears), creating files costs some 30× (docs/benchmarks.md, "The machine").
  // So a minute passes before the first run; `--no-settle` skips it.
  rmSync(work, { recursive: true, force: true });
  if (!args.includes('--no-settle')) {
    console.log(`waiting ${SETTLE_SECONDS} s for the file system to settle after deletions`);
    sleepSeconds(SETTLE_SECONDS);
  }
  mkdirSync(work);
  const factions = readdirSync(game).filter((f) => /^orders\.\d+$/.test(f)).length;
  const rows = [];
  for (let i = 0; i <= runs; i++) {
    const row = {};
    for (const side of i % 2 ? ['atlantis', 'fatecraft'] : ['fatecraft', 'atlantis']) {
      const copy = join(work, `${side}-${i}`);
      if (side === 'atlantis') {
        cpSync(game, copy, { recursive: true });
        row.atlantis = timed([binary, 'run'], copy);
      } else {
        execFileSync('cp', ['-al', campaign, copy]);
        row.fatecraft = timed([process.execPath, cli, 'turn', copy, '--expect', '1'], work);
      }
    }
    // The first pair warms the page cache and is not counted.
    if (i > 0) rows.push(row);
  }
  console.log(`${factions} factions; ${runs} pairs after a warm-up pair, alternating which goes first (F = fatecraft, A = Atlantis)`);
  console.log('  pair   F wall  F cpu  F MiB   A wall  A cpu  A MiB   F/A wall  F/A cpu');
  rows.forEach((r, i) =>
    console.log(
      `  ${String(i + 1).padStart(4)} ${r.fatecraft.wall.toFixed(2).padStart(8)} ${r.fatecraft.cpu.toFixed(2).padStart(6)} ${Math.round(r.fatecraft.mib).toString().padStart(6)} ${r.atlantis.wall.toFixed(2).padStart(8)} ${r.atlantis.cpu.toFixed(2).padStart(6)} ${Math.round(r.atlantis.mib).toString().padStart(6)} ${(r.fatecraft.wall / r.atlantis.wall).toFixed(3).padStart(10)} ${(r.fatecraft.cpu / r.atlantis.cpu).toFixed(3).padStart(8)}`,
    ),
  );
  const per = (xs) => `${((median(xs) / factions) * 1000).toFixed(2)} ms`;
  console.log(`  per faction, medians: fatecraft wall ${per(rows.map((r) => r.fatecraft.wall))}, cpu ${per(rows.map((r) => r.fatecraft.cpu))}; Atlantis wall ${per(rows.map((r) => r.atlantis.wall))}, cpu ${per(rows.map((r) => r.atlantis.cpu))}`);
  console.log(`  F/A pair by pair, median (min–max): wall ${spread(rows.map((r) => r.fatecraft.wall / r.atlantis.wall))}, cpu ${spread(rows.map((r) => r.fatecraft.cpu / r.atlantis.cpu))}`);
  // Kept, not deleted: deleting them now would slow whatever is timed on this disk in the next minute.
  console.log(`  the runs are in ${work} (the next \`pair\` of this game removes them first)`);
}

/** How long file creation stays slow after a big deletion on this VM's disk (measured: 60 s, then 30× faster). */
const SETTLE_SECONDS = 70;

function sleepSeconds(seconds) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, seconds * 1000);
}

if (args[0] === 'prepare') prepare();
else if (args[0] === 'pair') pair();
else console.log('usage: node scripts/atlantis-bench.mjs prepare --atlantis <standard> --dir <dir> --factions N --units U | pair --game <dir> --campaign <dir> [--runs N]');
