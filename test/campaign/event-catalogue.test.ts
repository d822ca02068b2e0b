import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { readPendingOrders } from '../../src/orders/pending.js';
import { DEMO } from '../report/support.js';

/**
 * events.yaml is checked when the campaign opens: a wrong entry stops the
 * campaign with the file, the line and the key, and says what is valid.
 */
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function problemsWith(events: string): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), 'fatecraft-events-'));
  cpSync(join(DEMO, 'campaign.yaml'), join(dir, 'campaign.yaml'));
  writeFileSync(join(dir, 'events.yaml'), events);
  try {
    await openCampaign(dir);
  } catch (e) {
    expect(e).toBeInstanceOf(CampaignError);
    return (e as Error).message;
  }
  return '';
}

const entry = (extra: string) => `events:
  - id: harvest
    title: Harvest
    text: Good harvest in {settlement}.
    tone: good
${extra}`;

describe('the event catalogue at load', () => {
  it('the demo catalogue loads', async () => {
    const open = await openCampaign(DEMO);
    expect(Object.keys(open.campaign.events?.entries ?? {}).length).toBeGreaterThanOrEqual(12);
  });

  it('refuses an unknown effect with file, line and key', async () => {
    const msg = await problemsWith(entry('    effects:\n      - renown: 5\n      - treasure: 10\n'));
    expect(msg).toMatch(/events\.yaml: line 8: events\[0\]\.effects\[1\]\.treasure: unknown effect "treasure"/);
    expect(msg).toContain('known: renown, fate');
  });

  it('refuses a bad condition with file, line and key', async () => {
    const msg = await problemsWith(entry('    conditions:\n      - season: Spring\n'));
    expect(msg).toMatch(/events\.yaml: line 7: events\[0\]\.conditions\[0\]\.season: "Spring" is not a season of this campaign \(seasons: Summer, Winter\)/);
    const unknown = await problemsWith(entry('    conditions:\n      - prosperty: { min: 1 }\n'));
    expect(unknown).toMatch(/line 7: events\[0\]\.conditions\[0\]\.prosperty: unknown condition "prosperty"; did you mean "prosperity"\?/);
  });

  it('refuses a weight below zero', async () => {
    const msg = await problemsWith(entry('    weight: -1\n'));
    expect(msg).toMatch(/events\.yaml: line 6: events\[0\]\.weight: a weight cannot be below zero/);
  });

  it('refuses an effect the scope cannot take, a follow-up to no event and a revolt without rebels', async () => {
    const msg = await problemsWith(entry('    effects:\n      - unit_lost: null\n      - follow_up: { event: nowhere }\n      - revolt: null\n'));
    expect(msg).toContain('events[0].effects[0].unit_lost: "unit_lost" needs an event of scope unit or settlement or hex; this one\'s scope is nation');
    expect(msg).toContain('events[0].effects[1].follow_up: no event "nowhere" in the catalogue');
    expect(msg).toContain('events[0].effects[2].revolt: a revolt needs settings.rebellion.nation');
  });

  it('refuses a roll whose default is no option, an outcome with a bad effect and a duplicated option, with their keys', async () => {
    const msg = await problemsWith(
      entry(`    roll:
      default: flee
      options:
        - { id: fight, text: Fight, beat: 3, fail: [{ gold: 1 }] }
        - { id: fight, text: Fight again, beat: 4 }
`),
    );
    expect(msg).toMatch(/line 9: events\[0\]\.roll\.options\[0\]\.fail\[0\]\.gold: unknown effect "gold"/);
    const twice = await problemsWith(entry('    roll:\n      default: flee\n      options:\n        - { id: fight, text: Fight, beat: 3 }\n        - { id: fight, text: Again, beat: 4 }\n'));
    expect(twice).toContain('events[0].roll.options[1].id: option "fight" is listed twice');
    expect(twice).toMatch(/line 7: events\[0\]\.roll\.default: the default "flee" is not one of the options \(fight\)/);
  });

  it('refuses a task with neither conditions nor a price, a task named twice and one set by an unknown id', async () => {
    const msg = await problemsWith(
      entry(`    effects:
      - task: { id: idle, text: Nothing, turns: 2 }
      - task: nowhere
`),
    );
    expect(msg).toContain('events[0].effects[0].task: a task is met by its conditions or by a payment (pay: N, with "answer <task>"): give one of them');
    expect(msg).toContain('events[0].effects[1].task: no task "nowhere" is defined in the catalogue');
    const twice = await problemsWith(entry('    effects:\n      - task: { id: t, text: A, turns: 1, pay: 5 }\n      - task: { id: t, text: B, turns: 1, pay: 5 }\n'));
    expect(twice).toContain('events[0].effects[1].task.id: task "t" is defined twice; set it again elsewhere with "task: t"');
  });

  it('refuses a misspelt key of an entry and of the settings', async () => {
    const msg = await problemsWith(`settings:\n  quite: 10\n${entry('    tone_: bad\n')}`);
    expect(msg).toMatch(/line 2: settings: Unrecognized key: "quite"/);
  });
});

describe("the GM's events in _gm.yaml", () => {
  async function gmFile(text: string) {
    dir = mkdtempSync(join(tmpdir(), 'fatecraft-gm-events-'));
    cpSync(DEMO, dir, { recursive: true });
    writeFileSync(join(dir, 'orders', '0001', '_gm.yaml'), text);
    const open = await openCampaign(dir);
    return readPendingOrders(open, await readState(dir, 0, open.campaign), 1);
  }

  it('reads a catalogue event, a one-off and a forced roll', async () => {
    const pending = await gmFile(
      'turn: 1\nactions:\n  - { kind: event, nation: argenta, event: plague, target: saltmarsh }\n  - { kind: event, nation: argenta, title: A comet, text: "A comet over {settlement}.", tone: neutral, effects: [{ fate: 1 }] }\n  - { kind: roll, scope: "events:argenta", values: [60, 2] }\n',
    );
    expect(pending.orders.gm[0]).toEqual({ kind: 'event', nation: 'argenta', event: 'plague', target: 'saltmarsh' });
    expect(pending.orders.gm[1]).toMatchObject({ kind: 'event', nation: 'argenta', oneOff: { id: 'gm-2', title: 'A comet', scope: 'nation', effects: [{ kind: 'fate', amount: 1 }] } });
    expect(pending.orders.gm[2]).toEqual({ kind: 'roll', scope: 'events:argenta', values: [60, 2] });
  });

  it('refuses a one-off that asks for a roll: next turn it must still be in the catalogue', async () => {
    await expect(gmFile('turn: 1\nactions:\n  - kind: event\n    nation: argenta\n    title: Dice\n    text: Roll!\n    tone: neutral\n    roll: { beat: 3 }\n')).rejects.toThrow(
      /line 8: actions\[0\]\.roll: a one-off cannot ask for a roll: write the event in events\.yaml \(drawn: false\) and inject it by id/,
    );
  });

  it('refuses an unknown catalogue event and a one-off with a bad effect, with the line and key', async () => {
    await expect(gmFile('turn: 1\nactions:\n  - { kind: event, nation: argenta, event: dragons }\n')).rejects.toThrow(/_gm\.yaml: line 3: actions\[0\]: no event "dragons" in the catalogue \(events\.yaml\)/);
    await expect(gmFile('turn: 1\nactions:\n  - kind: event\n    nation: argenta\n    title: Gold\n    text: Gold!\n    tone: good\n    effects:\n      - gold: 5\n')).rejects.toThrow(
      /_gm\.yaml: line 9: actions\[0\]\.effects\[0\]\.gold: unknown effect "gold"/,
    );
  });
});
