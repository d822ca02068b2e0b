import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEventCatalogue } from '../../src/campaign/event-catalogue.js';
import { loadWorld } from '../support/case-world.js';

/** Nations in waiting (campaign.yaml `breaksFrom`) and the `civil_war` effect, checked at the edge (docs/rules.md L3). */
const CASES = join(import.meta.dirname, '..', 'cases');
const WORLD = join(CASES, 'events', '_civil-war-world.yaml');
const scratch = mkdtempSync(join(tmpdir(), 'fc-waiting-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function world(edit: (text: string) => string): string {
  const file = join(scratch, `world-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, edit(readFileSync(WORLD, 'utf8')));
  return file;
}

describe('a nation in waiting', () => {
  it("knows the unit types of the nation it breaks from, and starts out of play", () => {
    const campaign = loadWorld(WORLD);
    expect(campaign.nations['silverfall' as never]).toMatchObject({ breaksFrom: 'argenta' });
    expect(Object.keys(campaign.nations['silverfall' as never]!.unitTypes)).toEqual(Object.keys(campaign.nations['argenta' as never]!.unitTypes));
  });

  it('is refused breaking from no nation, from the rebels, or with land of its own', () => {
    expect(() => loadWorld(world((t) => t.replace('breaksFrom: argenta', 'breaksFrom: borea')))).toThrow(/nations\.silverfall\.breaksFrom.*no other nation "borea"/s);
    expect(() => loadWorld(world((t) => t.replace('breaksFrom: argenta', 'breaksFrom: free')))).toThrow(/free is the rebels/);
    expect(() => loadWorld(world((t) => t.replace('breaksFrom: argenta\n', 'breaksFrom: argenta\n    units: [{ id: s-1, type: marines, hex: "2,2" }]\n')))).toThrow(/starts with no settlements, units or externals/);
  });
});

describe('the civil_war effect', () => {
  it('must name a nation in waiting', () => {
    const campaign = loadWorld(WORLD);
    const read = (into: string) =>
      readEventCatalogue({ events: [{ id: 'war', title: 'War', text: 'War.', tone: 'bad', effects: [{ civil_war: { into } }] }] }, () => undefined, 'events.yaml', campaign);
    expect(read('silverfall').catalogue?.entries.war?.effects).toEqual([{ kind: 'civil_war', into: 'silverfall', settlements: 1 }]);
    expect(read('gondarahl').problems.map((p) => p.message)).toEqual(['nation "gondarahl" must say breaksFrom: <the nation it breaks from> in campaign.yaml']);
    expect(read('borea').problems.map((p) => p.message)).toEqual(['no nation "borea" in campaign.yaml: declare the nation in waiting there, with breaksFrom']);
  });
});
