import { beforeAll, describe, expect, it } from 'vitest';
import { readEventCatalogue } from '../../src/campaign/event-catalogue.js';
import type { Campaign } from '../../src/core/campaign.js';
import type { GameState } from '../../src/core/state.js';
import { acceptedLine, buildReceipt, problemLine, type OrderReceipt } from '../../src/orders/receipt.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import type { OrderSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, loadWorld } from './world.js';

/**
 * `answer <event> [choice] [fate N]`: the receipt echoes how the answer was
 * understood, and a wrong event, choice or Fate pledge is refused with what
 * would be valid (docs/orders.md, "Answering an event").
 */
const CATALOGUE = {
  events: [
    {
      id: 'bandits',
      title: 'Bandits on the road',
      text: 'Bandits lurk near {settlement}.',
      tone: 'bad',
      roll: {
        prompt: 'Ride out, or pay them off?',
        default: 'pay',
        options: [
          { id: 'fight', text: 'Ride out', beat: 3, success: [{ renown: 10 }] },
          { id: 'pay', text: 'Pay them off', beat: 1, fail: [{ renown: -10 }] },
        ],
      },
    },
    {
      id: 'envoy',
      title: 'The Emperor sends an envoy',
      text: 'He asks for tribute.',
      tone: 'neutral',
      effects: [{ task: { id: 'tribute', text: 'Pay the Emperor 30 Renown', turns: 2, pay: 30, onMissed: [{ happiness: -1 }] } }],
    },
  ],
};

let campaign: Campaign;
let state: GameState;
beforeAll(async () => {
  const world = await loadWorld();
  const read = readEventCatalogue(CATALOGUE, () => undefined, 'events.yaml', world.open.campaign);
  expect(read.problems).toEqual([]);
  campaign = { ...world.open.campaign, events: read.catalogue! };
  state = structuredClone(world.state);
  const argenta = state.nations[ARGENTA]!;
  argenta.rolls = [{ event: 'bandits', turn: 4, target: { scope: 'nation' } }];
  argenta.tasks = [{ task: 'tribute', event: 'envoy', title: 'The Emperor sends an envoy', text: 'Pay the Emperor 30 Renown', set: 3, deadline: 5, target: { scope: 'nation' } }];
});

const receiptOf = (sheet: OrderSheet): OrderReceipt => buildReceipt({ campaign, state, sheet, nation: ARGENTA }).receipt;
const linesOf = (text: string) => {
  const r = receiptOf(readTextSheet(text));
  return [...r.accepted.map(acceptedLine), ...r.problems.map(problemLine)];
};

describe('answer orders', () => {
  it('echo the choice, the number to beat and the Fate pledged', () => {
    expect(linesOf('answer bandits fight fate 2')).toEqual(['line 1: Answers "Bandits on the road": fight, a d6 to beat Good (+3), +2 for 2 of the 2 Fate pledged']);
    expect(linesOf('answer bandits')).toEqual(['line 1: Answers "Bandits on the road": pay (the default), a d6 to beat Average (+1), no Fate']);
    expect(linesOf('Answer Bandits choosing fight with 3 fate')).toEqual(['line 1: Answers "Bandits on the road": fight, a d6 to beat Good (+3), +2 for 2 of the 3 Fate pledged']);
    expect(receiptOf(readTextSheet('answer bandits fight fate 2')).fate).toEqual({ available: 6, pledged: 2, left: 4 });
  });

  it('pay a task\'s price up front, like any costly order', () => {
    const r = receiptOf(readTextSheet('answer tribute'));
    expect(r.accepted.map(acceptedLine)).toEqual(['line 1: Pays 30 Renown: The Emperor sends an envoy']);
    expect(r.renown).toEqual({ available: 150, spent: 30, left: 120 });
  });

  it('refuse a wrong event, a wrong choice and too much Fate, saying what is valid', () => {
    expect(linesOf('answer bandit fight')).toEqual([
      'line 1: "answer bandit fight": nothing awaits an answer named "bandit" — valid: awaiting your answer: bandits (choices: fight, pay); tribute (pay 30 Renown)',
    ]);
    expect(linesOf('answer bandits flee')).toEqual(['line 1: "answer bandits flee": "flee" is not a choice of "Bandits on the road" — valid: choose one of: fight, pay (e.g. "answer bandits fight")']);
    expect(linesOf('answer bandits fight fate 7')).toEqual(['line 1: "answer bandits fight fate 7": pledges 7 Fate; only 6 left after the orders above']);
    expect(linesOf('answer tribute fate 1')).toEqual(['line 1: "answer tribute fate 1": paying for "The Emperor sends an envoy" takes no choice and no Fate — valid: answer tribute']);
    expect(linesOf('answer bandits fight\nanswer bandits pay')[1]).toBe('line 2: "answer bandits pay": over the limit: one answer to "bandits" a turn');
    expect(linesOf('answer')).toEqual(['line 1: "answer": this answer order does not say which event it answers ("answer bandits") — valid: write it like: answer bandits fight [fate 2] — the event, then your choice if it offers one']);
  });

  it('mean the same in a YAML order sheet', () => {
    const yaml = readYamlSheet(Buffer.from('nation: argenta\nturn: 4\norders:\n  - answer: bandits\n    choice: fight\n    fate: 2\n  - { answer: tribute }\n'));
    const text = readTextSheet('Nation: argenta\nTurn: 4\nanswer bandits fight fate 2\nanswer tribute\n');
    const orders = (s: OrderSheet) => interpretSheet(s, ARGENTA, campaign, state).orders.orders;
    expect(orders(yaml)).toEqual([
      { kind: 'answer', event: 'bandits', choice: 'fight', fate: 2 },
      { kind: 'answer', event: 'tribute' },
    ]);
    expect(orders(text)).toEqual(orders(yaml));
  });
});

describe('explore orders', () => {
  it('are read in text and YAML alike, and echo the number to beat', () => {
    const [line] = linesOf('explore argenta-1 fate 1');
    expect(line).toMatch(/^line 1: .*\(argenta-1\) explores \d+,\d+ and within 1 hex: a d6 to beat Good \(\+3\), pledging 1 Fate$/);
    const yaml = readYamlSheet(Buffer.from('nation: argenta\nturn: 4\norders:\n  - { explore: argenta-1, fate: 1 }\n'));
    expect(interpretSheet(yaml, ARGENTA, campaign, state).orders.orders).toEqual([{ kind: 'explore', unit: 'argenta-1', fate: 1 }]);
    expect(linesOf('explore')).toEqual(['line 1: "explore": this explore order does not say which unit explores — valid: write it like: explore argenta-7 [fate 1]']);
  });
});
