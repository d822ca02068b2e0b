import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTurnEvents, turnDirName } from '../../src/campaign/store.js';
import type { LoggedEvent } from '../../src/core/events.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { reportRenderer } from '../../src/report/renderer.js';
import { DEMO, readReports, scratchCopy } from './support.js';
import { playTwice } from '../support/play-twice.js';

/**
 * Three turns of the demo as the command line plays them, with the order
 * files players and the GM would write: Gondarahl answers its bandit chief
 * with a choice and Fate, Argenta leaves its comet unanswered, Westvalia lets
 * the Emperor's tribute lapse. Played twice, byte for byte the same.
 */
const FILES: Record<number, Record<string, string>> = {
  2: {
    'gondarahl.yaml': 'nation: gondarahl\nturn: 2\norders:\n  - answer: bandit-chief\n    choice: ride-out\n    fate: 2\n',
    '_gm.yaml': 'turn: 2\nactions:\n  - { kind: event, nation: argenta, event: comet }\n  - { kind: roll, scope: "roll:gondarahl:bandit-chief", values: [5] }\n',
  },
  3: {
    '_gm.yaml': 'turn: 3\nactions:\n  - { kind: roll, scope: "roll:argenta:comet", values: [6] }\n',
  },
};

interface Run {
  events: LoggedEvent[][];
  reports: Record<string, string>[];
  cleanup: () => void;
}

async function playDemo(label: string): Promise<Run> {
  const { dir, cleanup } = scratchCopy(DEMO, label);
  const run: Run = { events: [], reports: [], cleanup };
  for (let turn = 1; turn <= 3; turn++) {
    const folder = join(dir, 'orders', turnDirName(turn));
    mkdirSync(folder, { recursive: true });
    for (const [name, text] of Object.entries(FILES[turn] ?? {})) writeFileSync(join(folder, name), text);
    await runTurn(dir, { renderers: [reportRenderer()] });
    run.events.push(await readTurnEvents(dir, turn));
    run.reports.push(readReports(dir, turn));
  }
  return run;
}

let first: Run;
let second: Run;
playTwice(playDemo, 'living-world', (a, b) => ([first, second] = [a, b]));

const find = (events: LoggedEvent[], want: Partial<Record<string, unknown>>) => events.find((e) => Object.entries(want).every(([k, v]) => (e as Record<string, unknown>)[k] === v));

describe('the demo with rolls and tasks, played for three turns', () => {
  it('rolls an answered roll with its choice and Fate, and reports it', () => {
    const roll = find(first.events[1]!, { type: 'event_roll', nation: 'gondarahl' });
    expect(roll).toMatchObject({ event: 'bandit-chief', option: 'ride-out', answered: true, roll: { value: 5, forced: true }, fateSpent: 2, modifier: 2, total: 7, outcome: 'great' });
    expect(find(first.events[1]!, { type: 'resource', nation: 'gondarahl', resource: 'fate', delta: -2 })).toBeDefined();
    const txt = first.reports[1]!['gondarahl.txt']!;
    expect(txt).toContain('the roll for "A bandit chief" (answered "ride-out"): d6 5 + 2 for 2 Fate = 7 against Good (+3) to beat — a great success.');
    expect(txt).toContain("The chief's head hangs over the gate of Greyvein.");
  });

  it('rolls an unanswered roll at the deadline with the default and no Fate', () => {
    expect(first.reports[1]!['argenta.txt']).toContain('answer comet');
    expect(find(first.events[2]!, { type: 'event_roll', nation: 'argenta' })).toMatchObject({ event: 'comet', option: 'roll', answered: false, fateSpent: 0, total: 6, outcome: 'success' });
  });

  it('misses a task at its deadline, and says so to its nation only', () => {
    expect(first.reports[1]!['westvalia.txt']).toContain('a task, 1 turn left (deadline: turn 3)');
    expect(find(first.events[2]!, { type: 'task_missed', nation: 'westvalia', task: 'tribute-to-the-emperor' })).toMatchObject({ nations: ['westvalia'], why: '20 Renown was not paid by turn 3' });
    expect(first.reports[2]!['westvalia.txt']).toContain('the task of "The Emperor\'s tax-collector" is missed: 20 Renown was not paid by turn 3.');
    for (const [name, text] of Object.entries(first.reports[2]!)) if (!name.startsWith('westvalia') && name !== 'gm.html') expect(text, name).not.toContain('tax-collector');
  });

  it('is byte-identical when played again', () => {
    for (let i = 0; i < 3; i++) {
      expect(JSON.stringify(second.events[i])).toBe(JSON.stringify(first.events[i]));
      expect(second.reports[i]).toEqual(first.reports[i]);
    }
  });
});
