import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReceipt, checkToken, renderReceipt, turnStatus } from '../../src/orders/receipt.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ordersToYaml } from '../../src/orders/yaml-write.js';
import { ARGENTA, FIXTURES, loadWorld, type World } from './world.js';

let world: World;
beforeAll(async () => {
  world = await loadWorld();
});

const receiptFor = (body: string, extra: { expectedToken?: string; late?: boolean; replacesEarlier?: boolean } = {}) =>
  buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readTextSheet(body), nation: ARGENTA, ...extra }).receipt;

describe('order tokens', () => {
  it.each([
    ['s3cret', 's3cret', 'ok'],
    ['  s3cret ', 's3cret', 'ok'],
    ['S3CRET', 's3cret', 'wrong'],
    ['s3cre', 's3cret', 'wrong'],
    ['a much longer guess than the token', 's3cret', 'wrong'],
    [undefined, 's3cret', 'missing'],
    ['', 's3cret', 'missing'],
    ['anything', undefined, 'unchecked'],
    [undefined, undefined, 'unchecked'],
  ] as const)('given %j, expected %j: %s', (given, expected, status) => {
    expect(checkToken(given, expected)).toBe(status);
  });
});

describe('turn numbers', () => {
  it.each([
    [undefined, 'assumed'],
    [3, 'past'],
    [4, 'pending'],
    [5, 'future'],
    [40, 'future'],
    [0, 'past'],
  ] as const)('turn %j with turn 4 pending: %s', (turn, status) => {
    expect(turnStatus(turn, 4)).toBe(status);
  });

  it('takes orders without a Turn line for the pending turn, and says so', () => {
    const r = receiptFor('rest argenta-2');
    expect(r).toMatchObject({ turn: 4, turnStatus: 'assumed', ok: true });
    expect(renderReceipt(r)).toContain('Turn: 4 (no Turn line: taken as the pending turn, 4)');
  });
});

describe('submission rules on the receipt', () => {
  it('a later submission replaces the earlier one, and the receipt says so', () => {
    const r = receiptFor('Turn: 4\nrest argenta-2', { replacesEarlier: true });
    expect(r.replacesEarlier).toBe(true);
    expect(renderReceipt(r)).toContain('These orders replace, whole, the orders you sent earlier for turn 4.');
  });

  it('a submission refused whole replaces nothing', () => {
    expect(receiptFor('Turn: 3\nrest argenta-2', { replacesEarlier: true }).replacesEarlier).toBe(false);
    expect(receiptFor('Token: nope\nrest argenta-2', { replacesEarlier: true, expectedToken: 'yes' }).replacesEarlier).toBe(false);
  });

  it('late orders are read back but not applied', () => {
    const r = receiptFor('Turn: 4\nrest argenta-2', { late: true });
    expect(r).toMatchObject({ late: true, ok: false, refusedWhole: 'they arrived after the deadline for turn 4: these orders will not be applied' });
    const text = renderReceipt(r);
    expect(text).toContain('LATE: the deadline for turn 4 has passed.');
    expect(text).toContain('Understood (1), but not applied:');
  });

  it('valid orders stand beside rejected ones, and Renown is reported', () => {
    const r = receiptFor('upgrade Port Argent\nupgrade Atlantis\nbuild structure foundry in Highmoor');
    expect(r.accepted.map((a) => a.line)).toEqual([1, 3]);
    expect(r.problems.map((p) => p.line)).toEqual([2]);
    expect(r.renown).toEqual({ available: 150, spent: 80, left: 70 });
    expect(r.ok).toBe(false);
  });

  it('says the valid orders stand only when there are some', () => {
    expect(renderReceipt(receiptFor('upgrade Port Argent\nupgrade Atlantis'))).toContain('1 valid, 1 with problems. The valid orders stand;');
    const none = renderReceipt(receiptFor('upgrade Atlantis\nmarch on the moon'));
    expect(none).not.toContain('valid orders stand');
    expect(none).toContain('None of the 2 orders could be read, so nothing from this submission is applied');
    expect(renderReceipt(receiptFor('upgrade Atlantis'))).toContain('The order could not be read, so nothing from this submission is applied. Correct it');
  });

  it('moves say when they arrive', () => {
    const [move] = receiptFor('move Iron Guard to 6,5').accepted;
    expect(move).toMatchObject({ kind: 'move', arrivesTurn: 4, renown: 0, fate: 0 });
  });
});

describe('typed orders filed back as YAML', () => {
  it('read back to the same orders, for every valid line of the receipt table', () => {
    const { cases } = parse(readFileSync(join(FIXTURES, 'receipt-lines.yaml'), 'utf8')) as { cases: { line: string; accepted?: string }[] };
    const valid = cases.filter((c) => c.accepted !== undefined).map((c) => c.line);
    const body = ['Turn: 4', 'Casualties: argenta-4, Iron Guard', ...valid].join('\n');
    const { orders, texts } = interpretSheet(readTextSheet(body), ARGENTA, world.open.campaign, world.state);
    expect(orders.refused).toBeUndefined();
    expect(orders.orders).toHaveLength(valid.length);
    const yaml = ordersToYaml(orders, { token: 's3cret', written: texts });
    const sheet = readYamlSheet(yaml);
    expect(sheet.token).toBe('s3cret');
    const again = interpretSheet(sheet, ARGENTA, world.open.campaign, world.state).orders;
    expect(again.refused).toBeUndefined();
    expect({ ...again, lines: [], texts: [] }).toEqual({ ...orders, lines: [], texts: [] });
    // Each order keeps the line and the words the player wrote it in.
    expect(again.lines).toEqual(orders.lines);
    expect(again.texts).toEqual(texts);
    expect(yaml).toContain('    line: 3\n    written: move Iron Guard to 6,5 via 6,6\n');
  });
});

describe('an unreadable mail that also lacks its token', () => {
  it('says why it could not be read, not only that the token is missing', () => {
    const sheet = readTextSheet(Buffer.from('Token: t\nnote Caf\xe9\n', 'latin1'));
    const { receipt } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet, nation: ARGENTA, expectedToken: 't' });
    expect(receipt.problems.map((p) => p.reason)).toEqual(['the text is not UTF-8 (byte 0xE9 on line 2)', 'the orders carry no order token']);
  });
});

describe('a supporter that cannot reach the battle', () => {
  it('is left out with a warning, and the attack is accepted with the rest', () => {
    const { receipt, orders } = buildReceipt({
      campaign: world.open.campaign,
      state: world.state,
      sheet: readTextSheet('attack gondarahl-3 with Iron Guard supported by argenta-4 and argenta-6'),
      nation: ARGENTA,
    });
    expect(receipt.ok).toBe(true);
    expect(receipt.accepted.map((a) => a.summary)).toEqual(["Marines 'Iron Guard' (argenta-1) attacks Dwarven infantry 'Stone Wardens' (gondarahl-3) at 7,6 with Marines 'Salt and Iron' (argenta-4)"]);
    expect(receipt.accepted[0]?.warnings).toEqual([
      "supporting unit Knights 'Duke's Lancers' (argenta-6) cannot reach 7,6 this turn, so it is left out and the attack goes ahead without it: it is 4 movement points away (1 hills hex at 2, 2 plains hexes at 1), and its speed is 3",
    ]);
    expect(renderReceipt(receipt)).toContain("! WARNING: supporting unit Knights 'Duke's Lancers' (argenta-6) cannot reach 7,6 this turn");
    // The sheet keeps what the player wrote; the engine is told the same order and leaves the supporter out itself.
    expect(orders.orders[0]).toMatchObject({ kind: 'attack', support: ['argenta-4', 'argenta-6'] });
  });
});
