import { describe, expect, it } from 'vitest';
import { asNationId } from '../../src/core/ids.js';
import { buildReceipt, renderReceipt } from '../../src/orders/receipt.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { htmlText } from './support.js';
import { playScenario } from './scenario.js';

/**
 * Issue 34, item 3: an order carried out with a warning is not refused. An
 * attack whose supporter could not reach goes ahead, and wins; the report's
 * head, its glance block, its lists and the GM's table of nations tell the
 * three states apart (refused, carried out with a warning, carried out).
 */
const played = playScenario({
  state: {
    units: {
      'a-1': { nation: 'argenta', type: 'marines', hex: '6,2' },
      'a-2': { nation: 'argenta', type: 'marines', hex: '6,3' },
      'a-3': { nation: 'argenta', type: 'marines', hex: '3,9' },
      'a-4': { nation: 'argenta', type: 'marines', hex: '2,2' },
      'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '8,2' },
    },
  },
  orders: {
    argenta: [
      { attack: 'a-1', target: 'd-1', support: ['a-2', 'a-3'] },
      { hold: 'a-4' },
      { rest: 'no-such-unit' },
    ],
  },
  // attackers a-1, a-2; defender d-1: the attack wins
  dice: { 'battle:attack:a-1': [6, 6, 1] },
});

describe('an attack whose supporter was left out', () => {
  it('went ahead and won', () => {
    const battle = played.events.find((e) => e.type === 'battle');
    expect(battle).toMatchObject({ winner: 'attacker', attacker: { units: ['a-1', 'a-2'] } });
  });

  it('is told as carried out with a warning in the head of the report, not as refused', () => {
    const text = played.text('argenta');
    expect(text).toContain('Orders: 1 carried out, 1 carried out with a warning, 1 refused. Units lost: 0.');
    expect(text).toContain('! One order was refused: see "Orders refused".');
    expect(text).toContain('! One order was carried out with a warning: see "Orders carried out with a warning".');
  });

  it('is listed under "Orders carried out with a warning", and only the unknown unit under "Orders refused"', () => {
    const text = played.text('argenta');
    const refused = section(text, '-- Orders refused --');
    const warned = section(text, '-- Orders carried out with a warning --');
    expect(warned).toContain('line 1: {"attack":"a-1","target":"d-1","support":["a-2","a-3"]}');
    expect(warned).toContain('so it is left out and the attack goes ahead without it');
    expect(refused).not.toContain('attack');
    expect(refused).toContain('line 3:');
  });

  it('is told apart in the HTML report too', () => {
    const html = htmlText(played.html('argenta'));
    expect(html).toContain('Orders carried out with a warning');
    expect(html).toMatch(/Orders\s+1 carried out, 1 carried out with a warning, 1 refused\s/);
  });

  it("is counted apart in the GM's table of nations and listed apart in the nation's section", () => {
    const gm = htmlText(played.gm());
    expect(gm).toContain("1 carried out, 1 carried out with a warning, 1 refused");
    expect(gm).toContain('Carried out with a warning');
  });
});

/** The lines of a text report's section, up to the next blank line. */
function section(text: string, heading: string): string {
  const start = text.indexOf(heading);
  if (start < 0) return '';
  const end = text.indexOf('\n\n', start);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('the receipt of the same orders', () => {
  it('says the attack goes ahead with a warning in its closing line', () => {
    const sheet = readTextSheet(Buffer.from('attack d-1 with a-1 supported by a-2 and a-3\nhold a-4\n'));
    const { receipt } = buildReceipt({ campaign: played.campaign, state: played.before, sheet, nation: asNationId('argenta') });
    const text = renderReceipt(receipt);
    expect(text).toContain('! WARNING: supporting unit');
    expect(text).toContain('All 2 orders are valid; 1 goes ahead with a warning (! WARNING above).');
  });
});
