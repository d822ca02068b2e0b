import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { openCampaign } from '../../src/campaign/store.js';
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

  it('refuses a misspelt key of an entry and of the settings', async () => {
    const msg = await problemsWith(`settings:\n  quite: 10\n${entry('    tone_: bad\n')}`);
    expect(msg).toMatch(/line 2: settings: Unrecognized key: "quite"/);
  });
});
