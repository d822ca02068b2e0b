import type { NationId } from '../../src/core/ids.js';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { filesUnder } from '../../src/campaign/files-under.js';
import { readState, readTurnEvents, turnDirName, openCampaign } from '../../src/campaign/store.js';
import type { LoggedEvent } from '../../src/core/events.js';
import type { GameState } from '../../src/core/state.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { reportRenderer } from '../../src/report/renderer.js';
import { DEMO, ROOT, scratchCopy } from './support.js';
import { playTwice } from '../support/play-twice.js';

/**
 * The twenty-turn demo run (demo-twenty-turns.test.ts) with the campaign's
 * missing-player policy set to `caretaker` (issue 35): the same scripted
 * orders, so the nations that sent nothing for many turns — Grarkul from
 * turn 2, West Valia from turn 3, Gondarahl in the middle, Argenta until
 * turn 16 — are played by the built-in steward once they have missed
 * rules.nmrFlagAfter turns. One overlay (test/fixtures/demo-twenty-turns-caretaker/)
 * adds Vulcanstille's raid on silent Grarkul's Bloodwater (turns 16–18), so a
 * caretaker's settlement is attacked. Played twice; every file of every turn
 * folder must come out the same.
 */
const TURNS = 20;
const SCRIPTS = [join(ROOT, 'test', 'fixtures', 'demo-twenty-turns'), join(ROOT, 'test', 'fixtures', 'demo-twenty-turns-caretaker')];

interface Turn {
  events: LoggedEvent[];
  state: GameState;
  /** The orders folder the turn kept: file name → its YAML. */
  orders: Record<string, string>;
  gm: string;
  texts: Record<string, string>;
}

interface Run {
  dir: string;
  turns: Turn[];
  cleanup: () => void;
}

async function play(label: string): Promise<Run> {
  const { dir, cleanup } = scratchCopy(DEMO, label);
  appendFileSync(join(dir, 'campaign.yaml'), '\nseats:\n  policy: caretaker\n');
  const run: Run = { dir, turns: [], cleanup };
  const { campaign } = await openCampaign(dir);
  for (let turn = 1; turn <= TURNS; turn++) {
    for (const script of SCRIPTS) {
      const from = join(script, turnDirName(turn));
      if (!existsSync(from)) continue;
      const folder = join(dir, 'orders', turnDirName(turn));
      mkdirSync(folder, { recursive: true });
      for (const name of readdirSync(from)) cpSync(join(from, name), join(folder, name));
    }
    await runTurn(dir, { renderers: [reportRenderer()] });
    const folder = join(dir, 'turns', turnDirName(turn));
    const kept = join(folder, 'orders');
    const orders = Object.fromEntries((existsSync(kept) ? readdirSync(kept) : []).map((n) => [n, readFileSync(join(kept, n), 'utf8')]));
    const reports = join(folder, 'reports');
    const texts: Record<string, string> = {};
    for (const name of readdirSync(reports).filter((n) => n.endsWith('.txt'))) texts[name] = readFileSync(join(reports, name), 'utf8');
    run.turns.push({ events: await readTurnEvents(dir, turn), state: await readState(dir, turn, campaign), orders, gm: readFileSync(join(reports, 'gm.html'), 'utf8'), texts });
  }
  return run;
}

let first: Run;
let second: Run;
playTwice(play, 'caretaker', (a, b) => ([first, second] = [a, b]));

/** The nations a caretaker played in a turn (its orders file was the one the turn used). */
const inCare = (t: Turn) => new Set(Object.keys(t.orders).flatMap((n) => (/^([a-z0-9_-]+)\.caretaker\.yaml$/.exec(n) && !t.orders[`${n.split('.')[0]}.yaml`] ? [n.split('.')[0]!] : [])));

describe(`the demo played for ${TURNS} turns with its silent nations under a caretaker`, () => {
  it('hands every long-silent nation to the caretaker after nmrFlagAfter missed turns, and back to its player when orders come', () => {
    // Grarkul sends nothing after turn 1: turns 2 and 3 are misses, the caretaker plays it from turn 4.
    expect(inCare(first.turns[2]!).has('grarkul')).toBe(false);
    for (let t = 4; t <= TURNS; t++) expect(inCare(first.turns[t - 1]!).has('grarkul'), `turn ${t}`).toBe(true);
    const taken = first.turns[3]!.events.find((e) => e.type === 'seat_changed' && e.nation === 'grarkul');
    expect(taken).toMatchObject({ to: 'caretaker' });
    // Every other nation hears of it as a rumour, without a number in it.
    expect(first.turns[3]!.texts['westvalia.txt']).toContain('It is said that the court of The Grarkul Tribes has fallen silent: stewards keep its lands and only defend them.');
    // Argenta's player is back in turn 16: its report says so, and its orders are its own again.
    expect(first.turns[15]!.events.find((e) => e.type === 'seat_changed' && e.nation === 'argenta')).toMatchObject({ to: 'player' });
    expect(inCare(first.turns[15]!).has('argenta')).toBe(false);
    // The missed turns go on counting under the caretaker.
    expect(first.turns[19]!.state.nations['grarkul' as NationId]!.missedTurns).toBe(19);
  });

  it("lists the caretaker's orders in the nation's own report, and in no one else's", () => {
    const t = first.turns[17]!; // turn 18, the assault on Bloodwater
    const text = t.texts['grarkul.txt']!;
    expect(text).toContain('== ORDERS GIVEN IN YOUR NAME ==\n\nYou sent no orders this turn, so a caretaker (a steward) gave them:\n- hold grarkul-2 fate 2\n- hold grarkul-5\n- defend Bloodwater with gk-ironhide\n');
    const care = inCare(t);
    for (const [name, report] of Object.entries(t.texts)) {
      const nation = name.replace(/\.txt$/, '');
      if (name === 'nations.txt') continue;
      if (!care.has(nation)) expect(report, name).not.toContain('ORDERS GIVEN IN YOUR NAME');
    }
  });

  it('defends a caretaker\'s settlement when it is attacked: its guard holds with Fate, a neighbour stands ready, and they fight together', () => {
    const defences = first.turns.flatMap((t, i) =>
      t.events.flatMap((e) => (e.type === 'battle' && inCare(t).has(e.defender.nation) ? [{ turn: i + 1, battle: e, orders: t.orders[`${e.defender.nation}.caretaker.yaml`]! }] : [])),
    );
    const supported = defences.filter(({ battle, orders }) => {
      const given = parse(orders) as { orders: { defend?: string; hold?: string; fate?: number }[] };
      const sworn = given.orders.filter((o) => o.defend !== undefined).map((o) => o.defend);
      return battle.defender.units.length >= 2 && battle.defender.fateSpent > 0 && battle.defender.units.some((u) => sworn.includes(u));
    });
    expect(supported.length, JSON.stringify(defences.map((d) => [d.turn, d.battle.defender]))).toBeGreaterThan(0);
    const { turn, battle } = supported[0]!;
    expect(battle).toMatchObject({ kind: 'assault', attacker: { nation: 'vulcanstille' }, defender: { nation: 'grarkul' }, winner: 'defender' });
    expect(first.turns[turn - 1]!.texts['grarkul.txt']).toContain('defend Bloodwater with gk-ironhide');
  });

  it('keeps the work going: what a caretaker pays for is finished, and nothing under way is given up', () => {
    const started: { turn: number; build: string }[] = [];
    const finished = new Set<string>();
    first.turns.forEach((t, i) => {
      const care = inCare(t);
      for (const e of t.events) {
        if (e.type === 'build_started' && care.has(e.nation)) started.push({ turn: i + 1, build: e.build });
        if (e.type === 'build_completed') finished.add(e.build);
        if (e.type === 'work_abandoned' || e.type === 'build_lost') expect(care.has(e.nation), `turn ${i + 1}: ${JSON.stringify(e)}`).toBe(false);
      }
    });
    expect(started.length).toBeGreaterThan(3);
    expect(started.filter((s) => !finished.has(s.build))).toEqual([]);
  });

  it('starts no war: the only attacks in a caretaker\'s orders retake what was its own', () => {
    for (const [i, t] of first.turns.entries()) {
      for (const nation of inCare(t)) {
        const given = parse(t.orders[`${nation}.caretaker.yaml`]!) as { orders: Record<string, unknown>[] };
        for (const o of given.orders.filter((x) => x.attack !== undefined || x.assault !== undefined || x.act !== undefined)) {
          const target = String(o.target);
          const before = i === 0 ? undefined : first.turns[i - 1]!.state.settlements[target as never];
          expect(before?.takenFrom, `turn ${i + 1}: ${nation} ${JSON.stringify(o)}`).toBe(nation);
        }
      }
    }
  });

  it('asks the GM to contact a silent player once a silence, not every turn the caretaker plays', () => {
    const flagAt = 2; // the demo's rules.nmrFlagAfter (the default)
    for (const [id, name] of [['grarkul', 'The Grarkul Tribes'], ['westvalia', 'West Valia'], ['gondarahl', 'Kingdom of Gondarahl'], ['argenta', 'Duchy of Argenta']] as const) {
      const turns = first.turns.flatMap((t, i) => (new RegExp(`${name} has sent no orders for \\d+ turns in a row \\(the flag is at \\d+\\): contact the player`).test(t.gm) ? [i + 1] : []));
      expect(turns.length, `${name}: never flagged`).toBeGreaterThan(0);
      // Only in the turn the count reaches the flag: the next turn the caretaker has the seat.
      for (const turn of turns) expect(first.turns[turn - 1]!.state.nations[id as NationId]!.missedTurns, `${name}, turn ${turn}`).toBe(flagAt);
    }
    expect(first.turns[10]!.gm).toContain('The Grarkul Tribes: played by the caretaker since turn 4');
  });

  it('is byte-identical when played again, every file of every turn folder', () => {
    const turns = join(first.dir, 'turns');
    const files = filesUnder(turns);
    expect(filesUnder(join(second.dir, 'turns'))).toEqual(files);
    expect(files.filter((f) => f.endsWith('.caretaker.yaml')).length).toBeGreaterThan(TURNS);
    const differ = files.filter((f) => !readFileSync(join(turns, f)).equals(readFileSync(join(second.dir, 'turns', f))));
    expect(differ).toEqual([]);
  });
});
