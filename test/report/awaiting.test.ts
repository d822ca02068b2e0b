import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventCatalogue } from '../../src/campaign/event-catalogue.js';
import type { Campaign } from '../../src/core/campaign.js';
import type { LoggedEvent } from '../../src/core/events.js';
import { asNationId } from '../../src/core/ids.js';
import { nationView } from '../../src/report/nation-view.js';
import { renderOrderTemplate } from '../../src/report/order-template.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { builtInTemplateDir, loadTemplates, renderNationReports } from '../../src/report/render.js';
import { FIXTURE, htmlText, play, type Played } from './support.js';

/**
 * A roll an event asked and a timed task under way are shown to their nation
 * with what to write in next turn's orders (the exact line), the number to
 * beat and the deadline; a nation with neither sees no such section.
 */
let played: Played;
let campaign: Campaign;
beforeAll(async () => {
  played = await play(FIXTURE, 1, 'awaiting');
  const catalogue = {
    events: [
      {
        id: 'court',
        title: 'Orders from the court',
        text: 'The court asks.',
        tone: 'neutral',
        drawn: false,
        effects: [
          { task: { id: 'tribute', text: 'Pay the Emperor 30 Renown', turns: 2, pay: 30 } },
          { task: { id: 'watch', text: 'Keep a unit on the pass', turns: 3, hold: true, conditions: [{ unit_at: '2,2' }] } },
        ],
      },
    ],
  };
  const read = readEventCatalogue(catalogue, () => undefined, 'events.yaml', played.open.campaign);
  expect(read.problems).toEqual([]);
  campaign = { ...played.open.campaign, events: read.catalogue! };
});
afterAll(() => played?.cleanup());

const argenta = asNationId('argenta');

const asked: LoggedEvent = {
  seq: 9000,
  phase: 'events',
  type: 'roll_asked',
  nations: [argenta],
  nation: argenta,
  event: 'bandits',
  title: 'Bandits on the road',
  prompt: 'Will Duke Cristoval ride out, or pay them off?',
  options: [
    { id: 'fight', text: 'Ride out against them', beat: 3 },
    { id: 'pay', text: 'Pay them off', beat: 1 },
  ],
  default: 'pay',
  turn: 2,
};

function viewOf(withThem: boolean) {
  const t = played.turns[0]!;
  const state = structuredClone(t.state);
  if (withThem) {
    state.nations[argenta]!.tasks = [
      { task: 'tribute', event: 'court', title: 'Orders from the court', text: 'Pay the Emperor 30 Renown', set: 1, deadline: 3, target: { scope: 'nation' } },
      { task: 'watch', event: 'court', title: 'Orders from the court', text: 'Keep a unit on the pass', set: 1, deadline: 4, target: { scope: 'nation' } },
    ];
  }
  return { state, view: nationView(campaign, t.before, state, withThem ? [...t.events, asked] : t.events, argenta, { orders: t.orders, legend: played.open.file.map.legend }) };
}

const reports = (withThem: boolean) => renderNationReports(viewOf(withThem).view, campaign, loadTemplates([builtInTemplateDir()]), ['txt', 'html']);

describe('what awaits the nation', () => {
  it('shows a roll with its options, numbers to beat, the deadline and the exact order line', () => {
    const { txt } = reports(true);
    const section = txt.slice(txt.indexOf('== AWAITING YOUR HAND =='), txt.indexOf('== WHAT HAPPENED =='));
    expect(section).toBe(`== AWAITING YOUR HAND ==

* Bandits on the road — a roll: answer in your orders for turn 2
  Will Duke Cristoval ride out, or pay them off?
  - fight: Ride out against them — a d6 (plus Fate) must beat Good (+3), i.e. 4 or more
  - pay: Pay them off — a d6 (plus Fate) must beat Average (+1), i.e. 2 or more (the default)
  Answer with the order line:  answer bandits fight
  (add Fate for a better roll:  answer bandits fight fate 2)
  Unanswered, it is rolled at the deadline with "pay" and no Fate.

* Orders from the court — a task, 2 turns left (deadline: turn 3)
  Pay the Emperor 30 Renown
  Met when you pay 30 Renown.
  Pay with the order line:  answer tribute

* Orders from the court — a task, 3 turns left (deadline: turn 4)
  Keep a unit on the pass
  Met when one of the nation's units stands at 2,2, at every turn until turn 4.

`);
  });

  it('shows the same in the HTML report', () => {
    const { html } = reports(true);
    const text = htmlText(html!).replace(/\s+/g, ' ');
    expect(text).toContain('Awaiting your hand');
    expect(text).toContain('fight : Ride out against them — a d6 (plus Fate) must beat Good (+3), i.e. 4 or more');
    expect(text).toContain('Answer with the order line answer bandits fight');
    expect(text).toContain('Orders from the court — a task, 2 turns left (deadline: turn 3)');
    expect(text).toContain('Pay with the order line answer tribute');
  });

  it('puts the answers in the order sheet, ready to uncomment', () => {
    const { view, state } = viewOf(true);
    const sheet = renderOrderTemplate(view, campaign);
    const answers = sheet.split('\n').filter((l) => l.includes('{answer:'));
    expect(answers.map((l) => l.replace(/\}\s+#.*$/, '}'))).toEqual(['  # - {answer: bandits, choice: fight, fate: 0}', '  # - {answer: bandits, choice: pay, fate: 0}', '  # - {answer: tribute}']);
    const filled = sheet.replace('  # - {answer: bandits, choice: fight', '  - {answer: bandits, choice: fight').replace('  # - {answer: tribute}', '  - {answer: tribute}');
    const orders = interpretSheet(readYamlSheet(Buffer.from(filled)), argenta, campaign, state).orders;
    expect(orders.orders).toEqual([{ kind: 'answer', event: 'bandits', choice: 'fight' }, { kind: 'answer', event: 'tribute' }]);
  });

  it('is absent when nothing awaits', () => {
    const { txt, html } = reports(false);
    expect(txt).not.toContain('AWAITING');
    expect(html).not.toContain('id="awaiting"');
  });
});
