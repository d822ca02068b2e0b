import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NationId } from '../../src/core/ids.js';
import { CampaignError } from '../../src/campaign/problems.js';
import { openCampaign } from '../../src/campaign/store.js';

/**
 * A campaign opened again with the same files is not built again (store.ts, openCampaign): each caller still
 * gets a copy of its own, and an edited campaign.yaml or catalogue, one added or one removed, is read anew.
 */
const DEMO = join(import.meta.dirname, '..', '..', 'campaigns', 'silversheen');
const root = mkdtempSync(join(tmpdir(), 'fc-open-kept-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function copy(label: string): string {
  const dir = join(root, label);
  cpSync(DEMO, dir, { recursive: true, filter: (src) => !src.includes(`${DEMO}/turns`) && !src.includes(`${DEMO}/mail`) });
  return dir;
}

describe('a campaign opened again', () => {
  it('gives each caller its own copy: what one changes, the next open does not see', async () => {
    const dir = copy('copies');
    const first = await openCampaign(dir);
    const emails = first.file.nations['argenta' as NationId]!.email;
    for (let n = 0; n < 2; n++) {
      const again = await openCampaign(dir);
      expect(again).toEqual(first);
      expect(again.campaign).not.toBe(first.campaign);
      // Changed in memory, as a GM command changes what it then writes: the next open must not see it.
      again.campaign.title = 'Changed in memory';
      again.file.nations['argenta' as NationId]!.email = ['someone@else.test'];
      delete again.campaign.actions!.entries.bombard;
    }
    const last = await openCampaign(dir);
    expect(last.campaign.title).toBe('The Silversheen Sea');
    expect(last.file.nations['argenta' as NationId]!.email).toEqual(emails);
    expect(last.campaign.actions!.entries.bombard).toBeDefined();
  });

  it('reads an edited campaign.yaml, an edited, removed or added catalogue anew', async () => {
    const dir = copy('edits');
    await openCampaign(dir);
    const yaml = readFileSync(join(dir, 'campaign.yaml'), 'utf8');
    writeFileSync(join(dir, 'campaign.yaml'), yaml.replace('title: The Silversheen Sea', 'title: The Silver Sea'));
    expect((await openCampaign(dir)).campaign.title).toBe('The Silver Sea');

    const actions = readFileSync(join(dir, 'actions.yaml'), 'utf8');
    writeFileSync(join(dir, 'actions.yaml'), actions.replace('name: Bombardment', 'name: Shelling'));
    expect((await openCampaign(dir)).campaign.actions!.entries.bombard!.name).toBe('Shelling');
    rmSync(join(dir, 'actions.yaml'));
    expect((await openCampaign(dir)).campaign.actions!.entries.bombard).toBeUndefined();

    expect((await openCampaign(dir)).campaign.events).toBeDefined();
    rmSync(join(dir, 'events.yaml'));
    expect((await openCampaign(dir)).campaign.events).toBeUndefined();

    writeFileSync(join(dir, 'caretakers.yaml'), 'caretakers: [{ id: nobody }]\n');
    await expect(openCampaign(dir)).rejects.toThrow(CampaignError);
  });

  it('opened from another folder with the same files, names that folder and its files, never the first one', async () => {
    const a = copy('here');
    const b = copy('there');
    for (const dir of [a, b]) {
      appendFileSync(join(dir, 'campaign.yaml'), '\n');
      writeFileSync(join(dir, 'caretakers.yaml'), 'caretakers: []\n');
    }
    const here = await openCampaign(a);
    expect(here.dir).toBe(a);
    const there = await openCampaign(b);
    expect(there.dir).toBe(b);
    expect(there.campaign.events!.source).toBe(join(b, 'events.yaml'));
    expect(there.campaign.actions!.source).toBe(join(b, 'actions.yaml'));
    expect(there.campaign.caretakers!.source).toBe(join(b, 'caretakers.yaml'));
    const naming = (value: unknown, path: string): string[] =>
      typeof value === 'string' ? (value.includes(a) ? [path] : []) : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => naming(v, `${path}.${k}`)) : [];
    expect(naming(there, 'open')).toEqual([]);
    expect(there).toEqual({ ...here, dir: b, campaign: { ...here.campaign, events: there.campaign.events, actions: there.campaign.actions, caretakers: there.campaign.caretakers } });
  });
});
