import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { playedNations } from '../../src/core/campaign.js';
import { writeYaml } from '../../src/campaign/yaml-io.js';
import { hexesOfRuns, hexRuns, nationData } from '../../src/report/nation-data.js';
import { nationView } from '../../src/report/nation-view.js';
import { nationYaml } from '../../src/report/render.js';
import type { NationView } from '../../src/report/types.js';
import { DEMO, FIXTURE, FIXTURE_TURNS, play, type Played } from './support.js';

/** The nation's YAML keeps every fact of the view, once (src/report/nation-data.ts). */
const runs: Played[] = [];
beforeAll(async () => {
  runs.push(await play(FIXTURE, FIXTURE_TURNS, 'data-fixture'), await play(DEMO, 1, 'data-demo'));
});
afterAll(() => runs.forEach((p) => p.cleanup()));

function views(): NationView[] {
  return runs.flatMap((played) =>
    played.turns.flatMap((t) => playedNations(played.open.campaign).map((n) => nationView(played.open.campaign, t.before, t.state, t.events, n, { orders: t.orders, legend: played.open.file.map.legend }))),
  );
}

/** The nation's YAML read back: the fields this test checks against the view. */
interface Data {
  otherNations?: Record<string, string>;
  units?: { id: string; bonuses?: unknown[]; besiegingId?: string }[];
  unitTypes: Record<string, { name: string; class: string; speed: number; bonuses?: unknown[] }>;
  sight: { hexes?: string[] };
  prosperity: { end: unknown };
  renown: { end: unknown };
}

describe("the nation's YAML", () => {
  it('writes the hexes in sight as runs down each column, and reads them back', () => {
    expect(hexRuns(['4,2', '4,0', '4,1', '5,7', '4,9'])).toEqual(['4,0-2', '4,9', '5,7']);
    expect(hexesOfRuns(['4,0-2', '4,9', '5,7'])).toEqual(['4,0', '4,1', '4,2', '4,9', '5,7']);
  });

  it('keeps what the view knows: units with their types, nations by id and name, sight, ratings', () => {
    for (const view of views()) {
      const data = parse(writeYaml(nationData(view))) as Data;
      const names = new Map<string, string>([...view.nations.map((n) => [n.id, n.name] as const), ...Object.entries(data.otherNations ?? {}), [view.nation.id, view.nation.name]]);
      const units = data.units ?? [];
      expect(units.map((u) => u.id)).toEqual(view.units.map((u) => u.id));
      view.units.forEach((u, i) => {
        const type = data.unitTypes[u.type]!;
        expect([type.name, type.class, type.speed]).toEqual([u.typeName, u.class, u.speed]);
        expect([...(type.bonuses ?? []), ...(units[i]!.bonuses ?? [])]).toEqual(u.bonuses);
        expect(units[i]!.besiegingId ?? null).toBe(u.besiegingId);
      });
      expect(hexesOfRuns(data.sight.hexes ?? []).sort()).toEqual([...view.sight.hexes].sort());
      for (const u of view.sight.units) expect(names.get(u.nation)).toBe(u.nationName);
      for (const s of [...view.sight.settlements, ...view.sight.externals, ...view.externals]) expect(names.get(s.nation)).toBe(s.nationName);
      for (const b of view.summary.battles) for (const side of [b.attacker, b.defender]) expect(names.get(side.nation)).toBe(side.nationName);
      expect(data.prosperity.end).toEqual({ value: view.prosperity.end.value, ...(view.prosperity.end.word ? { word: view.prosperity.end.word } : {}) });
      expect(data.renown.end).toBe(view.renown.end);
    }
  });

  it('is smaller than the view written whole by a fifth or more (two fifths at 1,000 nations: docs/benchmarks.md)', () => {
    let whole = 0;
    let written = 0;
    for (const view of views()) {
      const { kind: _kind, ...rest } = view;
      whole += writeYaml(rest).length;
      written += nationYaml(view).length;
    }
    expect(written / whole).toBeLessThan(0.8);
  });
});
