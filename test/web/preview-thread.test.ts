import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/built-cli.js';
import { Client, deskOver, expectGmPreview, GM_SECRET, startedDemo, type DeskCampaignCopy } from './support.js';

/**
 * The GM's preview from the desk in a thread of its own (the built src/web/preview-worker.ts, as
 * `fatecraft serve` runs it): the same preview, in the GM's log at the desk's time, the campaign unchanged.
 */
const base = '/c/silversheen';
let copy: DeskCampaignCopy;

beforeAll(async () => {
  ensureBuilt();
  copy = await startedDemo('preview-thread');
});
afterAll(() => copy?.cleanup());

describe("the GM's preview in a thread of its own", () => {
  it('resolves the pending turn in a scratch copy, shown to the GM and logged; the campaign unchanged', async () => {
    // The worker as it ships (bundled: scripts/bundle.mjs).
    const worker = join(ROOT, 'dist', 'fatecraft', 'preview-worker.js');
    expect(existsSync(worker)).toBe(true);
    const desk = deskOver([copy], { previewWorker: worker });
    const gm = new Client(desk);
    expect((await gm.post(`${base}/gm/sign-in`, { secret: GM_SECRET })).status).toBe(303);
    const line = await expectGmPreview(gm, base, copy.dir);
    // At the desk's (fake) time, not the thread's own clock.
    expect(JSON.stringify(line)).toContain(copy.clock.now().toISOString().slice(0, 16));
  });
});
