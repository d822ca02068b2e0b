import { describe, expect, it } from 'vitest';
import { asNationId, type NationId } from '../../src/core/ids.js';
import { nationMapModel } from '../../src/report/map-model.js';
import { nationView } from '../../src/report/nation-view.js';
import { renderSvgMap } from '../../src/report/svg-map.js';
import { overviewBase } from '../../src/report/svg-overview.js';
import { FIXTURE, FIXTURE_TURNS, type Played, playBeforeAll } from './support.js';

/**
 * The nation's map as a player reads it: this turn's moves and marks, unit
 * markers that say whose and how many, structures apart from resources, the
 * legend, the overview, and the at-a-glance numbers above it.
 */
let played: Played;
playBeforeAll(FIXTURE, FIXTURE_TURNS, 'map', (p) => (played = p));

const argenta = asNationId('argenta');
const borea = asNationId('borea');
const view = (nation: NationId, turn = 1) => {
  const t = played.turns[turn - 1]!;
  return nationView(played.open.campaign, t.before, t.state, t.events, nation, { orders: t.orders, legend: played.open.file.map.legend });
};

describe('this turn on the map', () => {
  it('marks the battle, the unit lost there and the settlement founded, from the events the nation took part in', () => {
    const v = view(argenta);
    const marks = v.changes.marks.map((m) => `${m.kind} ${m.hex}`);
    expect(marks).toContain('battle 6,4');
    expect(marks).toContain('lost 6,4');
    expect(marks).toContain('new 3,6');
    expect(v.changes.marks.find((m) => m.kind === 'lost')!.text).toContain("Infantry 'Iron Guard' (iron-guard)");
  });

  it('draws the nation\'s own moves, each from where the unit started', () => {
    let drawn = 0;
    for (const t of played.turns) {
      for (const nation of [argenta, borea]) {
        const v = view(nation, t.turn);
        const own = t.events.filter((e) => e.type === 'unit_moved' && e.nations.includes(nation));
        drawn += own.length;
        expect(v.changes.moves.filter((m) => !m.fled)).toHaveLength(own.length);
        for (const m of v.changes.moves) {
          expect(m.hexes.length).toBeGreaterThanOrEqual(2);
          if (!m.fled) expect(m.nation).toBe(nation);
        }
      }
    }
    expect(drawn).toBeGreaterThan(0);
    // Every move is one subpath of the white casing under the lines.
    const moved = played.turns.map((t) => view(argenta, t.turn)).find((v) => v.changes.moves.length > 0)!;
    const casing = /<g class="moves"[^>]*><path class="casing" d="([^"]*)"/.exec(renderSvgMap(nationMapModel(moved)))?.[1] ?? '';
    expect(casing.match(/M/g)?.length).toBe(moved.changes.moves.length);
    const svg = renderSvgMap(nationMapModel(view(argenta)));
    expect(svg).toContain('<g class="mark battle">');
    expect(svg).toContain('<g class="mark lost">');
    expect(svg).toContain('<g class="mark new">');
  });
});

describe('the map a player reads', () => {
  it('gives each unit marker its nation\'s letter and how many, the reader in the first colour', () => {
    const model = nationMapModel(view(argenta));
    expect(model.nations.map((n) => [n.id, n.letter, n.colour])).toEqual([
      ['argenta', 'A', '#d55e00'],
      ['borea', 'B', '#0072b2'],
    ]);
    const svg = renderSvgMap(model);
    expect(svg).toMatch(/<g class="unit n-argenta" data-hex="4,4">[\s\S]*?>A×1<\/text>/);
    expect(svg).toMatch(/<g class="unit n-borea" data-hex="6,4">[\s\S]*?>B×1<\/text>/);
  });

  it('draws a built structure apart from an untouched resource', () => {
    const v = view(argenta);
    const resource = v.sight.resources[0]!;
    const built = { ...v, externals: [{ id: 'x1', name: 'Silver Mine', nation: 'argenta', nationName: 'Argenta', hex: resource.hex }] };
    const before = renderSvgMap(nationMapModel(v));
    const after = renderSvgMap(nationMapModel(built));
    expect(before).toMatch(new RegExp(`<title>${resource.name} \\(${resource.kind}\\) at ${resource.hex}</title><use href="#[^"]+-s-resource"`));
    expect(after).not.toContain(`(${resource.kind}) at ${resource.hex}</title>`);
    expect(after).toMatch(new RegExp(`<title>Silver Mine of Argenta at ${resource.hex}</title><use href="#[^"]+-s-structure" x="[\\d.]+" y="[\\d.]+" fill="#d55e00"/>`));
    expect(after).toContain('structure built');
  });

  it('has a legend of nations, settlements, terrain, resources and this turn\'s marks', () => {
    const svg = renderSvgMap(nationMapModel(view(argenta)));
    const legend = svg.slice(svg.indexOf('<g class="legend"'));
    for (const text of ['Argenta (you)', 'Borea', 'capital', 'village', 'plains', 'faded: out of sight', 'resource, not built on', 'battle this turn', 'lost this turn', 'new this turn'])
      expect(legend).toContain(`>${text}</text>`);
  });

  it('writes no text smaller than 9 pixels at the map\'s own scale', () => {
    const svg = renderSvgMap(nationMapModel(view(argenta)), { overview: overviewBase(played.open.campaign) });
    const sizes = [...svg.matchAll(/font-size(?:="|:)(\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
    expect(sizes.length).toBeGreaterThan(3);
    for (const s of sizes) expect(s).toBeGreaterThanOrEqual(9);
    expect(Number(/width="([\d.]+)"/.exec(svg)![1])).toBeLessThanOrEqual(640);
  });

  it('shows the whole map in small with the area framed and only the reader\'s own hexes dotted', () => {
    const v = view(argenta);
    const svg = renderSvgMap(nationMapModel(v), { overview: overviewBase(played.open.campaign) });
    const overview = /<g class="overview"[\s\S]*?<\/g><rect[^>]*\/><\/g>/.exec(svg)?.[0] ?? '';
    expect(overview).toContain('<rect class="area"');
    // One colour of dots: the reader's.
    expect([...overview.matchAll(/<path d="[^"]+" fill="(#[0-9a-f]{6})"\/>/g)].map((m) => m[1]).filter((c) => c !== '#d9d2b4')).toEqual(['#d55e00']);
  });
});

describe('the block at the top of the report', () => {
  it('gives Renown and Fate now, the orders refused, the units lost and the alerts', () => {
    const v = view(argenta);
    expect(v.glance.renown).toBe(v.renown.end);
    expect(v.glance.fate).toBe(v.fate.end);
    expect(v.glance.renownChange).toBe(`${v.renown.end - v.renown.start >= 0 ? '+' : ''}${v.renown.end - v.renown.start}`);
    expect(v.glance.refused).toBe(1);
    expect(v.glance.unitsLost).toBe(1);
    expect(v.glance.deadline).toBe('to be announced by the GM');
    expect(v.glance.alerts).toContain('One order was refused: see "Orders refused".');
  });

  it('opens the HTML report, above the map, and the text report', () => {
    const t = played.turns[0]!;
    const html = t.reports['argenta.html']!;
    const glance = html.indexOf('<section id="glance">');
    expect(glance).toBeGreaterThan(0);
    expect(glance).toBeLessThan(html.indexOf('<section id="map">'));
    expect(html.indexOf('<section id="map">')).toBeLessThan(html.indexOf('<section id="happened">'));
    expect(t.reports['argenta.txt']!.split('\n').slice(0, 10).join('\n')).toMatch(/Orders: \d+ carried out, 1 refused\. Units lost: 1\./);
  });

  it('puts the table of nations first on the GM\'s page', () => {
    const gm = played.turns[0]!.reports['gm.html']!;
    expect(gm.indexOf('<table class="nations">')).toBeGreaterThan(0);
    expect(gm.indexOf('<table class="nations">')).toBeLessThan(gm.indexOf('<section id="attention">'));
  });
});
