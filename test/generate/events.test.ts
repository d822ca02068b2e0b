import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCampaign } from '../../src/campaign/store.js';
import { generateCampaign } from '../../src/generate/synthetic.js';
import { writeSyntheticCampaign } from '../../src/generate/write.js';
import { runTurn } from '../../src/jobs/run-turn.js';

/** `fatecraft generate --events`: a synthetic campaign whose turns draw from a generic catalogue, for the benchmark. */
const root = mkdtempSync(join(tmpdir(), 'fc-generate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a generated campaign with events', () => {
  it('opens with its catalogue checked, and its turn fires events of several scopes', async () => {
    const dir = join(root, 'with-events');
    await writeSyntheticCampaign(dir, generateCampaign({ nations: 12, unitsPerNation: 20, width: 46, height: 46, seed: 'events' }), { events: true });
    const open = await openCampaign(dir);
    expect(Object.keys(open.campaign.events?.entries ?? {})).toHaveLength(10);
    await runTurn(dir, { renderers: [] });
    const log = readFileSync(join(dir, 'turns', '0001', 'events.yaml'), 'utf8');
    const fired = [...log.matchAll(/type: event_fired[\s\S]*?event: ([a-z-]+)/g)].map((m) => m[1]);
    expect(fired.length).toBeGreaterThan(3);
    expect(new Set(fired).size).toBeGreaterThan(2);
  });

  it('without the flag has no events.yaml', async () => {
    const dir = join(root, 'without');
    await writeSyntheticCampaign(dir, generateCampaign({ nations: 3, unitsPerNation: 5, width: 24, height: 24, seed: 'events' }));
    expect((await openCampaign(dir)).campaign.events).toBeUndefined();
  });
});
