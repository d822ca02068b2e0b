import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, play, scratchCopy, type Played } from './support.js';

/** A trade route in the reports: told when it opens, listed while it stands, drawn on the map of its nations only. */
let played: Played;
let copy: { dir: string; cleanup: () => void };
beforeAll(async () => {
  copy = scratchCopy(DEMO, 'trade-routes-src');
  const orders = join(copy.dir, 'orders', '0001', 'argenta.yaml');
  const text = readFileSync(orders, 'utf8').replace(/  - act: Whisperer Lisane\n    action: informants\n    target: Cinderford\n/, '  - Whisperer Lisane opens trade between Saltmarsh and Argentum\n');
  expect(text).toContain('opens trade between');
  writeFileSync(orders, text);
  played = await play(copy.dir, 1, 'trade-routes');
});
afterAll(() => {
  played?.cleanup();
  copy?.cleanup();
});

describe('a trade route in the reports', () => {
  it('is told, listed and drawn for its nation', () => {
    const t = played.turns[0]!;
    expect(t.state.tradeRoutes).toEqual([expect.objectContaining({ from: 'saltmarsh', to: 'argentum', action: 'trade', opened: 1 })]);
    const txt = t.reports['argenta.txt'] ?? '';
    expect(txt).toContain('- A trade route opened between Saltmarsh and Argentum: 2 Renown a turn to each nation while it is open.');
    expect(txt).toContain('- Open trade route: Saltmarsh – Argentum, 2 Renown a turn (since turn 1).');
    expect(txt).toContain('trade route Saltmarsh–Argentum');
    const html = t.reports['argenta.html'] ?? '';
    expect(html).toMatch(/<g class="trade-routes"[^>]*>\n<line [^>]*stroke-dasharray="6 4"[^>]*><title>Trade route Saltmarsh – Argentum<\/title><\/line>/);
  });

  it("is drawn on the GM's map", () => {
    expect(played.turns[0]!.reports['gm.html']).toMatch(/<g class="trade-routes"[^>]*>\n<line [^>]*><title>Trade route Saltmarsh – Argentum<\/title><\/line>/);
  });

  it('is not shown to other nations', () => {
    const t = played.turns[0]!;
    for (const reader of ['gondarahl', 'grarkul', 'vulcanstille', 'westvalia']) {
      expect(t.reports[`${reader}.txt`], reader).not.toContain('trade route');
      expect(t.reports[`${reader}.html`], reader).not.toContain('trade-routes');
    }
  });
});
