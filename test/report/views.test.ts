import { describe, expect, it } from 'vitest';
import { TurnContext } from '../../src/core/context.js';
import { SeededRandomiser } from '../../src/core/dice.js';
import { checkNationOrders } from '../../src/core/checks/index.js';
import type { LoggedEvent } from '../../src/core/events.js';
import { asHexKey, asNationId, asSettlementId, asUnitId, type NationId } from '../../src/core/ids.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { renderAsciiMap } from '../../src/report/ascii-map.js';
import { gmView } from '../../src/report/gm-view.js';
import { rated } from '../../src/report/ladder.js';
import { gmMapModel, nationMapModel } from '../../src/report/map-model.js';
import { nationView } from '../../src/report/nation-view.js';
import { renderOrderTemplate } from '../../src/report/order-template.js';
import { renderSvgMap } from '../../src/report/svg-map.js';
import { FIXTURE, FIXTURE_TURNS, type Played, playBeforeAll, openBattle } from './support.js';

let played: Played;
playBeforeAll(FIXTURE, FIXTURE_TURNS, 'views', (p) => (played = p));

const argenta = asNationId('argenta');
const borea = asNationId('borea');
const corsa = asNationId('corsa');
const view = (nation: NationId, turn = 1, extra: LoggedEvent[] = []) => {
  const t = played.turns[turn - 1]!;
  return nationView(played.open.campaign, t.before, t.state, [...t.events, ...extra], nation, { orders: t.orders, legend: played.open.file.map.legend });
};

describe('the Fate ladder', () => {
  it('names indicator values where the ladder has a word', () => {
    expect(rated(2).text).toBe('+2 Fair');
    expect(rated(0).text).toBe('0 Mediocre');
    expect(rated(-2).text).toBe('-2 Terrible');
    expect(rated(-3)).toEqual({ value: -3, signed: '-3', word: null, text: '-3' });
  });
});

describe('the nation view', () => {
  it('itemises Renown and Fate so the ledger adds up', () => {
    for (const nation of [argenta, borea, corsa]) {
      for (const turn of [1, 2]) {
        const v = view(nation, turn);
        for (const l of [v.renown, v.fate]) expect(l.start + l.incomeTotal + l.spendingTotal).toBe(l.end);
        const p = v.prosperity;
        expect(p.start.value + p.changes.reduce((s, c) => s + c.delta, 0)).toBe(p.end.value);
      }
    }
  });

  it('counts units against the caps, units in training included', () => {
    const v = view(argenta, 1);
    expect(v.caps.map((c) => c.text)).toEqual(['3 of 4', '1 of 2']);
  });

  it('reports the battle with every die and modifier, and its refused order with the line', () => {
    const v = view(argenta, 1);
    const battle = v.summary.battles[0]!;
    expect(battle.defender.rolls.map((r) => [r.unit, r.die, r.value, r.total])).toEqual([
      ['storm-riders', 'd6', 4, 6],
      ['borea-foot', 'd6', 5, 5],
    ]);
    expect(battle.defender.rolls[0]!.modifiers).toEqual([{ value: 2, signed: '+2', source: 'cavalry charge (cavalry rule)' }]);
    expect(battle.attacker.fateSpent).toBe(2);
    expect(battle.defender.fateSpent).toBeNull();
    expect(v.summary.rejected).toEqual([{ line: 12, order: 'move: Silver Lances to: 40,40', reason: '40,40 is off the map (the map runs from 0,0 to 11,8)' }]);
    expect(v.notes).toEqual(['Please <b>confirm</b> the treaty & the border <script>alert(3)</script>']);
  });

  it('hears rumours of events elsewhere without units, numbers or places', () => {
    const t = played.turns[0]!;
    const far = openBattle({
      seq: 99,
      nations: [borea, corsa],
      battle: 'attack:shadow-legion',
      at: asHexKey('9,7'),
      attacker: { nation: corsa, units: [asUnitId('shadow-legion')], rolls: [], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 3 },
      defender: { nation: borea, units: [asUnitId('frost-wardens')], rolls: [], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 5 },
      winner: 'defender',
      deficit: 2,
      casualties: [{ unit: asUnitId('shadow-legion'), result: 'bloodied' }],
    });
    const v = view(argenta, 1, [far]);
    expect(v.rumours).toEqual(['Word reaches you of a battle between Corsa and Borea; Borea carried the day.']);
    const json = JSON.stringify(v);
    expect(json).not.toContain('Shadow Legion');
    expect(json).not.toContain('Frost Wardens');
    expect(view(borea, 1, [far]).summary.battles.map((b) => b.id)).toContain('attack:shadow-legion');
    expect(t.events.length).toBeGreaterThan(0);
  });

  it('shows siege rolls to both sides with their modifiers', () => {
    const roll: LoggedEvent = {
      seq: 98,
      phase: 'siege',
      type: 'siege_roll',
      nations: [argenta, borea],
      action: 'destroy_battlement',
      unit: asUnitId('storm-riders'),
      settlement: asSettlementId('argentum'),
      target: 1,
      roll: { die: 'd6', value: 5 },
      modifiers: [{ value: -2, source: 'cavalry against walls (cavalry rule)' }, { value: 1, source: '1 Fate' }],
      fateSpent: 1,
      total: 4,
      successes: 1,
      effects: ['+1 battlement destroyed'],
    };
    for (const nation of [argenta, borea]) {
      const s = view(nation, 1, [roll]).summary.sieges[0]!;
      expect(s.modifiers.map((m) => m.signed)).toEqual(['-2', '+1']);
      expect(s.headline).toMatch(/tried to destroy a battlement of Argentum: needed more than Average \(\+1\), rolled 4 — 1 success\.$/);
    }
    expect(view(corsa, 1, [roll]).summary.sieges).toEqual([]);
  });

  it('prints the deadline it is given, and "to be announced by the GM" otherwise', () => {
    const t = played.turns[0]!;
    expect(view(argenta).header.next).toEqual({ turn: 2, season: 'Winter', year: 412, when: 'Winter of 412', deadline: 'to be announced by the GM' });
    expect(nationView(played.open.campaign, t.before, t.state, t.events, argenta, { deadline: 'Sunday noon' }).header.next.deadline).toBe('Sunday noon');
  });
});

describe('the GM view', () => {
  it('has every nation in full, every NMR, note and the items left to the GM', () => {
    const t = played.turns[1]!;
    const gm = gmView(played.open.campaign, t.before, t.state, t.events, { orders: t.orders });
    expect(gm.nations.map((n) => [n.id, n.renown.end, n.sentOrders])).toEqual([
      ['argenta', t.state.nations[argenta]!.renown, true],
      ['borea', t.state.nations[borea]!.renown, true],
      ['corsa', t.state.nations[corsa]!.renown, false],
    ]);
    expect(gm.nmr).toEqual(['Corsa sent no orders (2 turns in a row).']);
    expect(gm.nations[2]!.nmrFlagged).toBe(true);
    expect(gm.attention.some((a) => a.startsWith('Corsa has sent no orders for 2 turns'))).toBe(true);
    expect(gm.attention.some((a) => a.includes('Swear the Moon Oath'))).toBe(true);
    expect(gm.nations[1]!.notes).toEqual(['The Frost King will be crowned at midwinter; keep it quiet']);
    expect(gm.gmActions[0]).toMatch(/^Borea achieved a goal: Crown the Frost King/);
    expect(gm.battles[0]!.defender.fateSpent).toBe(2);
  });
});

describe('maps', () => {
  it('draw every hex of the window, fogging those out of sight', () => {
    const v = view(argenta, 1);
    const svg = renderSvgMap(nationMapModel(v));
    const layer = /<g class="hexes">([\s\S]*?)<\/g>\n<g class="coord"/.exec(svg)?.[1] ?? '';
    const hexes = layer.match(/<use href="#/g) ?? [];
    // Out of sight: the hexes of the fog group, which carries the fog once.
    const fogged = /<g class="fog">([\s\S]*?)<\/g>/.exec(layer)?.[1]?.match(/<use href="#[^"]*" x="[\d.]+" y="[\d.]+"\/>/g) ?? [];
    expect(layer).not.toContain('class="fog"/>');
    expect(hexes.length).toBe(12 * 9);
    expect(hexes.length - fogged.length).toBe(v.sight.hexes.length);
    expect(svg.match(/<g class="settlement /g)?.length).toBe(2);
    // One hex shape per terrain in sight of the window, each hex a <use> of one of them.
    const ids = [...svg.matchAll(/<polygon id="([^"]+)" class="hex t-/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(layer.match(/(?<=<use href="#)[^"]+/g)).size).toBe(ids.length);
    // One coordinate label per hex but where another label is (a settlement's name, a badge, an icon: which
    // ones test/report/map-labels.test.ts checks), and no tooltip: the coordinates are printed, the terrain is in the legend.
    const left = 12 * 9 - (svg.match(/<text x="[\d.]+" y="[\d.]+">\d+,\d+<\/text>/g)?.length ?? 0);
    const marked = new Set([...svg.matchAll(/<g class="(?:settlement|unit) [^"]*" data-hex="([^"]+)"/g)].map((m) => m[1])).size + (svg.match(/<g class="(?:structure|resource|mark) /g)?.length ?? 0);
    expect(left).toBeGreaterThanOrEqual(2);
    expect(left).toBeLessThanOrEqual(2 * marked);
    expect(layer).not.toContain('<title>');
    expect(svg).toMatch(/<g class="coord" text-anchor="middle">\n<text x="22" y="8.5">0,0<\/text>\n/);
  });

  it('give each map its own ids, so two maps inlined in one page do not clash, and the same map the same bytes', () => {
    const argentaSvg = renderSvgMap(nationMapModel(view(argenta, 1)));
    const boreaSvg = renderSvgMap(nationMapModel(view(borea, 1)));
    const gmSvg = renderSvgMap(gmMapModel(gmView(played.open.campaign, played.turns[0]!.before, played.turns[0]!.state, played.turns[0]!.events)));
    const idsOf = (svg: string) => [...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    const all = [argentaSvg, boreaSvg, gmSvg].flatMap(idsOf);
    expect(all.length).toBeGreaterThan(3);
    expect(new Set(all).size).toBe(all.length);
    // Every reference resolves inside its own map.
    for (const svg of [argentaSvg, boreaSvg, gmSvg]) {
      const own = new Set(idsOf(svg));
      for (const [, ref] of svg.matchAll(/href="#([^"]+)"/g)) expect(own.has(ref)).toBe(true);
    }
    expect(renderSvgMap(nationMapModel(view(argenta, 1)))).toBe(argentaSvg);
  });

  it('leave labels and tooltips out of a dense map', () => {
    const svg = renderSvgMap(nationMapModel(view(argenta, 1)), { coordinates: false });
    const layer = /<g class="hexes">([\s\S]*?)<\/g>\n<\/g>/.exec(svg)?.[1] ?? '';
    expect(layer.match(/<use href="#[^"]+" x="[\d.]+" y="[\d.]+"\/>/g)?.length).toBe(12 * 9);
    expect(svg).not.toContain('class="coord"');
  });

  it('draw a compact ASCII map with odd columns half a hex lower', () => {
    const lines = renderAsciiMap(nationMapModel(view(argenta, 1)));
    expect(lines.slice(0, 2)).toEqual(['    0     2     4     6     8    10', '       1     3     5     7     9    11']);
    // Row 4: Argentum (A) at 2,4, the Grey Wolves (a) at 4,4, Borea's Storm Riders (b) at 6,4.
    expect(lines[2 + 2 * 4]).toBe('4   ~    A.    a.    b.    :.    :^');
    expect(lines).toHaveLength(2 + 2 * 9 + 4);
    const whole = renderAsciiMap(gmMapModel(gmView(played.open.campaign, played.turns[0]!.before, played.turns[0]!.state, played.turns[0]!.events)));
    expect(whole.slice(2, 2 + 2 * 9).join('\n')).not.toContain(':');
  });
});

describe('the order template', () => {
  it('is a valid order sheet as it stands, with no orders in it', () => {
    for (const nation of [argenta, borea, corsa]) {
      const sheet = readYamlSheet(renderOrderTemplate(view(nation, 2), played.open.campaign));
      expect(sheet.problems).toEqual([]);
      expect(sheet.entries).toEqual([]);
      expect(sheet.nation).toBe(nation);
      expect(sheet.turn).toBe(3);
    }
  });

  it('lists every unit and settlement, each of its lines an order the engine accepts', () => {
    const t = played.turns[1]!;
    const campaign = played.open.campaign;
    for (const nation of [argenta, borea]) {
      const v = view(nation, 2);
      const text = renderOrderTemplate(v, campaign);
      for (const u of v.units) expect(text).toContain(`# ${u.label} at ${u.hex} (`);
      // Holding needs no line a unit: the sheet says once how to hold with Fate pledged.
      expect(text).not.toContain('# - {hold:');
      expect(text).toContain('"- {hold: <unit>, fate: N}"');
      // An attack line's comment says what the target is without repeating the id the order names.
      const attackLines = text.split('\n').filter((x) => x.includes('{attack:'));
      if (nation === argenta) expect(attackLines.length).toBeGreaterThan(0);
      for (const f of v.sight.units) {
        for (const l of attackLines.filter((x) => x.includes(`target: ${f.id}}`))) {
          expect(l).not.toContain(`(${f.id})`);
          expect(l).toContain(` of ${f.nationName} at ${f.hex}${f.health === 'bloodied' ? ', bloodied' : ''}`);
        }
      }
      for (const s of v.settlements) expect(text).toContain(`(${s.id}), ${s.level}`);
      // The guards' word on spies (rules.md D2): the built-in espionage has a catch roll, and the nation has settlements to guard.
      expect(text).toContain('# - {hunt_spies: hunt, fate: 1}');
      expect(text).toContain('# - {hunt_spies: let go}');
      const lines = text.split('\n').filter((l) => l.startsWith('  # - {'));
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines) {
        const sheetText = `nation: ${nation}\nturn: 3\norders:\n${line.replace('  # - ', '  - ')}\n`;
        const sheet = readYamlSheet(sheetText);
        expect(sheet.problems, line).toEqual([]);
        const orders = interpretSheet(sheet, nation, campaign, t.state).orders;
        expect(orders.refused ?? [], line).toEqual([]);
        if (/needs \w+ here|Your message|at your \w+ cap/.test(line)) continue;
        const ctx = new TurnContext(campaign, structuredClone(t.state), { nations: {}, gm: [] }, new SeededRandomiser('views', 3));
        expect(checkNationOrders(ctx, orders).problems.map((p) => p.reason), line).toEqual([]);
      }
    }
  });
});
