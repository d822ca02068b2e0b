import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hexesOfRuns } from '../../src/report/nation-data.js';
import type { NationId } from '../../src/core/ids.js';
import { playedNations } from '../../src/core/campaign.js';
import { nationView, sightOf } from '../../src/report/nation-view.js';
import { number, secretsOf } from './leak-secrets.js';
import { DEMO, FIXTURE, FIXTURE_TURNS, decodeEntities, play, scratchCopy, type Played, playBeforeAll } from './support.js';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setReportSettings } from '../support/campaign-file.js';

/**
 * The leak test: for every pair of nations and every turn, nothing secret of
 * one appears in any report of the other — not its Renown or Fate (at any
 * point of the turn), its goals, its leader's ability, its notes to the GM,
 * nor any of its units the reader neither sees nor met in an event.
 */
/**
 * `numbers`: look for the other nations' Renown and Fate as bare numbers. The
 * fixture gives every nation large, distinct balances so that is meaningful;
 * in the demo campaign small balances (10, 20) are also prices and totals.
 */
function checkPairs(get: () => Played, numbers: boolean) {
  it('no report of one nation holds another nation\'s secrets', () => {
    const played = get();
    const nations = playedNations(played.open.campaign);
    let checked = 0;
    for (const t of played.turns) {
      for (const reader of nations) {
        const files = Object.entries(t.reports).filter(([name]) => name.startsWith(`${reader}.`) || name === `${reader}-orders.yaml`);
        expect(files.length).toBe(4);
        const view = JSON.stringify(nationView(played.open.campaign, t.before, t.state, t.events, reader, { orders: t.orders }));
        const texts: [string, string][] = [...files.flatMap(([name, text]): [string, string][] => [[name, text], [`${name} (decoded)`, decodeEntities(text)]]), ['the view', view]];
        for (const owner of nations) {
          if (owner === reader) continue;
          for (const secret of secretsOf(t, played, owner, reader, numbers)) {
            for (const [name, text] of texts) {
              checked++;
              expect(secret.test(text), `turn ${t.turn}: ${reader}'s ${name} shows ${owner}'s ${secret.what}`).toBe(false);
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('the map draws other nations\' units and settlements only where the nation sees, and this turn only from events it took part in', () => {
    const played = get();
    const campaign = played.open.campaign;
    let drawn = 0;
    for (const t of played.turns) {
      for (const reader of playedNations(campaign)) {
        const seen = sightOf(campaign, t.state, reader);
        const svg = /<svg[^>]*class="fatecraft-map"[\s\S]*?<\/svg>/.exec(t.reports[`${reader}.html`] ?? '')?.[0] ?? '';
        expect(svg.length).toBeGreaterThan(1000);
        for (const [, nation, hex] of svg.matchAll(/<g class="(?:unit|settlement) n-([^ "]+)[^"]*" data-hex="([^"]+)"/g)) {
          drawn++;
          if (nation !== reader) expect(seen.has(hex!), `turn ${t.turn}: ${reader}'s map draws ${nation} at ${hex}, out of its sight`).toBe(true);
        }
        // Every hex of a move or a mark is one an event the reader took part in names, or one of its own.
        const known = new Set<string>(seen);
        for (const u of [...Object.values(t.before.units), ...Object.values(t.state.units)]) if (u.nation === reader) known.add(u.hex);
        for (const s of [...Object.values(t.before.settlements), ...Object.values(t.state.settlements)]) if (s.nation === reader) known.add(s.hex);
        for (const e of t.events) {
          if (!e.nations.includes(reader)) continue;
          for (const key of ['at', 'from', 'to'] as const) if (key in e) known.add((e as unknown as Record<string, string>)[key]!);
          if (e.type === 'unit_moved') for (const h of e.path) known.add(h);
          if ('settlement' in e) for (const s of [t.before.settlements[e.settlement], t.state.settlements[e.settlement]]) if (s) known.add(s.hex);
        }
        const { changes } = nationView(campaign, t.before, t.state, t.events, reader, { orders: t.orders });
        for (const m of changes.moves) {
          for (const h of m.hexes) expect(known.has(h), `turn ${t.turn}: ${reader}'s map moves ${m.unit} through ${h}`).toBe(true);
          const event = t.events.find((e) => (e.type === 'unit_moved' || e.type === 'unit_fled') && e.from === m.hexes[0] && e.nations.includes(reader));
          expect(event, `turn ${t.turn}: ${reader}'s map draws a move it took no part in`).toBeDefined();
        }
        for (const m of changes.marks) expect(known.has(m.hex), `turn ${t.turn}: ${reader}'s map marks ${m.kind} at ${m.hex}`).toBe(true);
      }
    }
    expect(drawn).toBeGreaterThan(0);
  });

  it('the same scan finds each nation\'s own secrets in its own report (so the scan can see)', () => {
    const played = get();
    const t = played.turns.at(-1)!;
    for (const nation of playedNations(played.open.campaign)) {
      // A leader who died took the start sheet's ability along: an heir's report shows the heir's own.
      const sheetLeader = !t.state.nations[nation]?.leader;
      const own = secretsOf(t, played, nation, nation).filter((s) => s.what.startsWith('goal') || (s.what === 'leader ability' && sheetLeader));
      const text = decodeEntities(t.reports[`${nation}.txt`] ?? '');
      for (const s of own) expect(s.test(text), `${nation}'s own ${s.what}`).toBe(true);
      const renown = t.state.nations[nation]?.renown ?? NaN;
      expect(number('own Renown', renown).test(text)).toBe(true);
    }
  });

  it('the machine-readable report carries Renown, Fate and goals of its own nation only', () => {
    const played = get();
    for (const t of played.turns) {
      for (const nation of playedNations(played.open.campaign)) {
        const y = parse(t.reports[`${nation}.yaml`] ?? '') as Record<string, unknown> & { sight: { hexes: string[]; units?: { hex: string; nation: string }[] }; nations: Record<string, unknown>[] };
        expect(y.format).toBe('fatecraft-nation-report/2');
        expect((y.renown as { end: number }).end).toBe(t.state.nations[nation]?.renown);
        const inSight = hexesOfRuns(y.sight.hexes);
        for (const u of y.sight.units ?? []) {
          expect(u.nation).not.toBe(nation);
          expect(inSight).toContain(u.hex);
        }
        for (const n of y.nations) expect(Object.keys(n).sort()).toEqual(['alive', 'happiness', 'id', 'leader', 'name', 'prosperity']);
      }
    }
  });
}

describe('secrecy in the fixture campaign', () => {
  let played: Played;
  playBeforeAll(FIXTURE, FIXTURE_TURNS, 'leak', (p) => (played = p));
  checkPairs(() => played, true);

  it('sees what the fixture was built to show', () => {
    const t1 = played.turns[0]!;
    // Argenta met Borea's "<script>" infantry in battle, and sees the Storm Riders at the end of the turn.
    expect(t1.reports['argenta.txt']).toContain("Infantry '<script>alert(1)</script>' (borea-foot) of Borea");
    expect(t1.reports['argenta.txt']).toMatch(/Foreign units in sight:\n- Cavalry 'Storm Riders' \(storm-riders\) of Borea at 6,4/);
    // Corsa is far away: it sees nobody and nobody sees it.
    expect(t1.reports['corsa.txt']).toMatch(/Foreign units in sight:\n- none/);
    expect(t1.reports['argenta.txt']).not.toContain('Shadow Legion');
    // The enemy's Fate modifier is shown, the Fate it paid is not.
    expect(t1.reports['argenta.txt']).toMatch(/Fate: \+1\n/);
    expect(t1.reports['borea.txt']).toContain('Fate: +1 (1 Fate spent)');
  });
});

describe('letters between nations in the fixture campaign', () => {
  let played: Played;
  playBeforeAll(FIXTURE, FIXTURE_TURNS, 'leak-letters', (p) => (played = p));

  const lettersSection = (text: string) => /== LETTERS ==([\s\S]*?)(?:\n== |$)/.exec(text)?.[1] ?? '';
  const htmlLetters = (html: string) => /<section id="letters">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';

  it('a signed letter reaches its recipient only, with its sender named', () => {
    const t1 = played.turns[0]!;
    expect(lettersSection(t1.reports['borea.txt']!)).toContain('From Argenta, to Borea:\n  | To the Jarl: <b>peace</b> & trade, or the Marches burn.\n  | == TREASURY == is not a heading here.');
    expect(htmlLetters(t1.reports['borea.html']!)).toContain('&lt;b&gt;peace&lt;/b&gt; &amp; trade');
    expect(t1.reports['corsa.txt']).not.toContain('LETTERS');
  });

  it('an unsigned letter keeps its sender from everyone but the sender and the GM', () => {
    const t2 = played.turns[1]!;
    for (const reader of ['argenta', 'corsa'] as NationId[]) {
      expect(lettersSection(t2.reports[`${reader}.txt`]!)).toContain('An unsigned letter, to every nation:\n  | The Queen of Argenta is not what she seems.');
      expect(lettersSection(t2.reports[`${reader}.txt`]!)).not.toContain('Borea');
      expect(htmlLetters(t2.reports[`${reader}.html`]!)).not.toContain('Borea');
      // The nation's YAML leaves out what is null: an unsigned letter has no `from` at all.
      const y = parse(t2.reports[`${reader}.yaml`] ?? '') as { letters: Record<string, unknown>[] };
      expect(y.letters).toEqual([expect.objectContaining({ unsigned: true, to: 'every nation' })]);
      expect(y.letters[0]).not.toHaveProperty('from');
    }
    expect(lettersSection(t2.reports['borea.txt']!)).toContain('You wrote, unsigned, to every nation:');
    expect(t2.reports['gm.html']).toContain('Borea wrote (unsigned) to every nation');
  });
});

describe.skipIf(!existsSync(DEMO))('secrecy in the demo campaign (campaigns/silversheen)', () => {
  let played: Played;
  playBeforeAll(DEMO, 1, 'leak-demo', (p) => (played = p));
  checkPairs(() => played, false);
});

/**
 * The demo with events of every kind of secrecy: a catalogue event with a
 * discovery, a GM's one-off with a secret name, a public earthquake whose
 * rumour everyone hears, and the GM forcing Argenta's draw to be quiet.
 */
describe.skipIf(!existsSync(DEMO))('secrecy of events in the demo campaign', () => {
  let played: Played;
  let copy: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    copy = scratchCopy(DEMO, 'leak-events-src');
    writeFileSync(
      join(copy.dir, 'orders', '0001', '_gm.yaml'),
      [
        'turn: 1',
        'actions:',
        '  - { kind: event, nation: gondarahl, event: prospectors }',
        '  - kind: event',
        '    nation: grarkul',
        '    title: The Witch of the Fens',
        '    text: "A fen-witch whispers a secret name to the Warchief: Ulgrasha-Thrice-Drowned."',
        '    tone: neutral',
        '    effects:',
        '      - fate: 3',
        '      - message: "Never speak the name aloud: Ulgrasha."',
        '  - { kind: event, nation: westvalia, event: earthquake, target: westmarch }',
        '  - { kind: roll, scope: "events:argenta", values: [1] }',
        '',
      ].join('\n'),
    );
    played = await play(copy.dir, 1, 'leak-events');
  });
  afterAll(() => {
    played?.cleanup();
    copy?.cleanup();
  });
  checkPairs(() => played, false);

  it('each nation reads its own events; the public one reaches the others as a rumour; the GM sees all', () => {
    const t = played.turns[0]!;
    expect(t.reports['grarkul.txt']).toContain('* The Witch of the Fens (by the GM)');
    expect(t.reports['grarkul.txt']).toContain('Never speak the name aloud: Ulgrasha.');
    expect(t.reports['gondarahl.txt']).toMatch(/Your discoveries \(known to you alone\):\n- Orcfoot Silver \(silver\) at 28,14/);
    expect(t.reports['westvalia.txt']).toContain('* Earthquake (by the GM)');
    for (const reader of ['argenta', 'gondarahl', 'grarkul', 'vulcanstille']) {
      expect(t.reports[`${reader}.txt`]).toContain('The mountains shook this season; it is said walls fell.');
      if (reader !== 'grarkul') expect(t.reports[`${reader}.txt`]).not.toContain('Ulgrasha');
    }
    const gm = decodeEntities(t.reports['gm.html'] ?? '');
    for (const s of ['Ulgrasha-Thrice-Drowned', 'Orcfoot Silver', 'The Witch of the Fens']) expect(gm).toContain(s);
    // The GM forced Argenta's draw: a 1 is quiet, and the log says the die was forced.
    expect(t.events).toContainEqual(expect.objectContaining({ type: 'event_draw', nation: 'argenta', quiet: { die: 'd100', value: 1, forced: true } }));
  });
});

/**
 * The GM's log (reports.gmLog): the GM's adjustments are told in full to the nation they concern, and to the
 * others only as "another nation": not whose, not how much, not why.
 */
describe.skipIf(!existsSync(DEMO))("secrecy of the GM's log in the demo campaign", () => {
  let played: Played;
  let copy: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    copy = scratchCopy(DEMO, 'leak-gm-log-src');
    setReportSettings(copy.dir, { gmLog: true });
    writeFileSync(
      join(copy.dir, 'orders', '0001', '_gm.yaml'),
      [
        'turn: 1',
        'actions:',
        '  - { kind: adjust, nation: gondarahl, renown: 37, fate: -3, reason: "Compensation for the lost mail of Stonehold" }',
        '  - { kind: complete_goal, nation: grarkul, goal: burn-the-slave-pens, reason: "Cinderford fell in the side-game" }',
        '  - { kind: roll, scope: "events:argenta", values: [1] }',
        '',
      ].join('\n'),
    );
    played = await play(copy.dir, 1, 'leak-gm-log');
  });
  afterAll(() => {
    played?.cleanup();
    copy?.cleanup();
  });
  checkPairs(() => played, false);

  it('the nation concerned reads the adjustment and its reason; the others that another nation was adjusted', () => {
    const t = played.turns[0]!;
    expect(t.reports['gondarahl.txt']).toContain("== THE GM'S LOG ==\n\n- The GM adjusted your standing: +37 Renown, -3 Fate. Reason: Compensation for the lost mail of Stonehold");
    expect(t.reports['gondarahl.txt']).toContain('- The GM counted a goal of another nation as reached.');
    expect(t.reports['grarkul.txt']).toContain('- The GM counted your goal "Take Cinderford and free the orcs chained there." as reached. Reason: Cinderford fell in the side-game');
    expect(t.reports['grarkul.html']).toContain("<section id=\"gm-log\">\n<h2>The GM's log</h2>");
    for (const reader of ['argenta', 'vulcanstille', 'westvalia']) {
      const text = t.reports[`${reader}.txt`]!;
      const html = decodeEntities(t.reports[`${reader}.html`]!);
      expect(text).toContain('- The GM adjusted the standing of another nation.\n- The GM counted a goal of another nation as reached.\n- The GM set one die roll of this turn by hand.');
      for (const secret of ['+37', '37 Renown', '-3 Fate', 'Compensation', 'Stonehold', 'side-game', 'Take Cinderford', 'gondarahl', 'grarkul', 'Gondarahl', 'Grarkul']) {
        const gmLog = text.slice(text.indexOf("== THE GM'S LOG =="), text.indexOf('== TREASURY =='));
        expect(gmLog, `${reader}'s GM's log`).not.toContain(secret);
        const section = html.slice(html.indexOf('id="gm-log"'), html.indexOf('id="treasury"'));
        expect(section, `${reader}'s HTML GM's log`).not.toContain(secret);
      }
      expect(t.reports[`${reader}.yaml`]).toContain('gmLog:');
    }
  });
});

/**
 * Fate aspects (rules.fate.aspects) in the demo: a nation's secret aspect
 * reaches its own report (text, HTML, YAML) and no other; a public one every
 * report; the pair scan above checks every secret aspect against every report.
 */
describe.skipIf(!existsSync(DEMO))('secrecy of aspects in the demo campaign', () => {
  let played: Played;
  let copy: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    copy = scratchCopy(DEMO, 'leak-aspects-src');
    const file = join(copy.dir, 'campaign.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^rules:\n/m, 'rules:\n  fate: { aspects: true }\n'));
    appendFileSync(
      join(copy.dir, 'orders', '0001', '_gm.yaml'),
      [
        '  - { kind: aspect, name: Vaults of the Deep King, on: { nation: gondarahl }, owner: gondarahl, free: 2, secret: true }',
        '  - { kind: aspect, name: Whispering Fens, on: { settlement: mirefield }, free: 1 }',
        '',
      ].join('\n'),
    );
    played = await play(copy.dir, 1, 'leak-aspects');
  });
  afterAll(() => {
    played?.cleanup();
    copy?.cleanup();
  });
  checkPairs(() => played, false);

  it("shows the secret aspect to its nation alone, with its free invokes, and the public one to all", () => {
    const t = played.turns[0]!;
    expect(t.state.aspects?.map((a) => a.name)).toEqual(['Vaults of the Deep King', 'Whispering Fens']);
    expect(t.reports['gondarahl.txt']).toContain('* "Vaults of the Deep King" — on Kingdom of Gondarahl; 2 free invokes (yours); secret; on you');
    expect(decodeEntities(t.reports['gondarahl.html']!)).toContain('Vaults of the Deep King');
    expect(t.reports['gondarahl.yaml']).toContain('Vaults of the Deep King');
    expect(decodeEntities(t.reports['gm.html'] ?? '')).toContain('“Vaults of the Deep King” <em>(secret)</em></td><td>Kingdom of Gondarahl</td><td class="num">2</td><td>Kingdom of Gondarahl</td>');
    for (const reader of ['argenta', 'grarkul', 'vulcanstille', 'westvalia']) {
      for (const ext of ['txt', 'html', 'yaml']) {
        const report = decodeEntities(t.reports[`${reader}.${ext}`]!);
        expect(report, `${reader}.${ext}`).not.toContain('Vaults of the Deep King');
        expect(report, `${reader}.${ext}`).toContain('Whispering Fens');
      }
    }
  });
});

/**
 * Espionage in the demo: Argenta's Whisperer Lisane listens at Cinderford
 * (the Informants' network of campaigns/silversheen/actions.yaml) and the GM
 * forces a great success, which buys Vulcanstille's Renown and Fate as a
 * range, the units about Cinderford, the work under way and one goal. Argenta
 * reads exactly that; no one else reads any of it; Vulcanstille, who did not
 * notice (the network is noticed only when it fails), reads nothing either.
 */
describe.skipIf(!existsSync(DEMO))('secrecy of espionage in the demo campaign', () => {
  let played: Played;
  let copy: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    copy = scratchCopy(DEMO, 'leak-spies-src');
    // The demo's own turn-1 orders have Lisane listen at Cinderford; the GM forces the dice.
    expect(readFileSync(join(copy.dir, 'orders', '0001', 'argenta.yaml'), 'utf8')).toMatch(/act: Whisperer Lisane\n\s+action: informants\n\s+target: Cinderford/);
    writeFileSync(join(copy.dir, 'orders', '0001', '_gm.yaml'), ['turn: 1', 'actions:', '  - { kind: roll, scope: "action:argenta:ar-lisane", values: [6, 1] }', ''].join('\n'));
    played = await play(copy.dir, 1, 'leak-spies');
  });
  afterAll(() => {
    played?.cleanup();
    copy?.cleanup();
  });
  checkPairs(() => played, false);

  it("the spy's nation reads what its success bought, and only that; the others read nothing of it", () => {
    const t = played.turns[0]!;
    const learned = t.events.filter((e) => e.type === 'secret_learned');
    expect(learned.map((e) => (e.type === 'secret_learned' ? e.what : ''))).toEqual(['renown_fate', 'units', 'work', 'goal']);
    const argenta = decodeEntities(t.reports['argenta.txt'] ?? '');
    expect(argenta).toContain('-- Actions and intelligence --');
    for (const e of learned) if (e.type === 'secret_learned') expect(argenta).toContain(e.text);
    // A range in tens and fives, never the balance itself.
    expect(argenta).toMatch(/Vulcanstille\S* holds Renown between \d*0 and \d*9 and Fate between \d*[05] and \d*[49]\./);
    // Only one of Vulcanstille's goals was found.
    const goals = played.open.campaign.nations['vulcanstille' as NationId]!.goals.filter((g) => argenta.includes(g.text.trim()));
    expect(goals).toHaveLength(1);
    for (const reader of ['gondarahl', 'grarkul', 'vulcanstille', 'westvalia']) {
      for (const ext of ['txt', 'html', 'yaml']) {
        const text = decodeEntities(t.reports[`${reader}.${ext}`] ?? '');
        expect(text, `${reader}.${ext}`).not.toContain("Informants' network");
        for (const e of learned) if (e.type === 'secret_learned') expect(text, `${reader}.${ext}`).not.toContain(e.text);
      }
    }
  });
});

/** The same listening post foiled: Vulcanstille learns someone listened at Cinderford, not who; Argenta learns nothing. */
describe.skipIf(!existsSync(DEMO))('a foiled spy in the demo campaign', () => {
  let played: Played;
  let copy: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    copy = scratchCopy(DEMO, 'leak-foiled-src');
    writeFileSync(join(copy.dir, 'orders', '0001', '_gm.yaml'), ['turn: 1', 'actions:', '  - { kind: roll, scope: "action:argenta:ar-lisane", values: [1] }', ''].join('\n'));
    played = await play(copy.dir, 1, 'leak-foiled');
  });
  afterAll(() => {
    played?.cleanup();
    copy?.cleanup();
  });
  checkPairs(() => played, false);

  it('the target reads that it was spied on, without the spy\'s nation; the others read nothing', () => {
    const t = played.turns[0]!;
    expect(t.events.some((e) => e.type === 'secret_learned')).toBe(false);
    const vulcan = t.reports['vulcanstille.txt'] ?? '';
    const section = vulcan.slice(vulcan.indexOf('-- Actions and intelligence --'), vulcan.indexOf('\n\n', vulcan.indexOf('-- Actions and intelligence --')));
    expect(section).toBe("-- Actions and intelligence --\n- Informants' network against Cinderford was foiled.");
    expect(decodeEntities(t.reports['vulcanstille.html'] ?? '')).toContain("Informants' network against Cinderford was foiled.");
    expect(t.reports['argenta.txt']).toContain("Informants' network — Cinderford: d6 1 = 1 against 2 to beat — failed.");
    for (const reader of ['gondarahl', 'grarkul', 'westvalia']) expect(t.reports[`${reader}.txt`], reader).not.toContain("Informants' network");
  });
});
