import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { renderReports } from '../../src/report/renderer.js';
import { cleanupScratch, demoCopy } from '../schedule/support.js';

/** A nation in waiting (campaign.yaml `breaksFrom`, docs/rules.md L3) out of play has no report to read: no empty file is written for it. */
afterAll(cleanupScratch);

describe('reports of a turn with a nation in waiting', () => {
  it('write none for the nation in waiting until it is in play, and one from the turn it comes in', async () => {
    const dir = demoCopy('waiting-report');
    const file = join(dir, 'campaign.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.setIn(['nations', 'ashfree'], doc.createNode({ name: 'The Free Cities of Ash', leader: 'Warden Oska', ability: 'Rose against the slavers.', caps: { military: 6, diplomatic: 2 }, start: { renown: 0, fate: 0, prosperity: 0, happiness: 0 }, breaksFrom: 'vulcanstille' }));
    writeFileSync(file, doc.toString());
    const open = await openCampaign(dir);
    const state = await readState(dir, 0, open.campaign);
    const ash = asNationId('ashfree');
    expect(state.nations[ash]).toMatchObject({ alive: false });
    const files = await renderReports({ open, before: state, state, events: [], turn: 1 }, { gm: false });
    expect(Object.keys(files).filter((f) => f.includes('ashfree'))).toEqual([]);
    expect(files['reports/argenta.txt']).toBeDefined();
    // Brought into play by a civil war this turn: its first report is written.
    const after = structuredClone(state);
    after.nations[ash]!.alive = true;
    const more = await renderReports({ open, before: state, state: after, events: [], turn: 1 }, { gm: false });
    expect(more['reports/ashfree.txt']).toBeDefined();
  });
});
