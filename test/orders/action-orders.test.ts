import { beforeAll, describe, expect, it } from 'vitest';
import { openCampaign, readState, type OpenCampaign } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { orderNames, orderText } from '../../src/core/order-text.js';
import type { GameState } from '../../src/core/state.js';
import { hasActionLines, interpretSheet } from '../../src/orders/sheet.js';
import { buildReceipt, renderReceipt } from '../../src/orders/receipt.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ordersToYaml } from '../../src/orders/yaml-write.js';
import { readMailSheet } from '../../src/orders/mail-sheet.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO } from '../report/support.js';
import { nationView } from '../../src/report/nation-view.js';
import { renderOrderTemplate } from '../../src/report/order-template.js';

/** Action orders as players write them, in the demo campaign (its actions.yaml over the built-in actions). */
let open: OpenCampaign;
let state: GameState;
beforeAll(async () => {
  open = await openCampaign(DEMO);
  state = await readState(DEMO, 0, open.campaign);
});

const argenta = asNationId('argenta');
const read = (text: string, nation = argenta) => interpretSheet(readTextSheet(text), nation, open.campaign, state).orders;

describe('action orders in plain text', () => {
  it('reads "<unit> <verb> <target>" with the catalogue\'s verbs', () => {
    const o = read('Whisperer Lisane spies on Gondarahl\nWhisperer Lisane listens at Irongate fate 1\nGuild Surveyors sabotages Irongate aiming at the battlement\nGuild Surveyors opens trade between Saltmarsh and Argentum');
    expect(o.refused).toBeUndefined();
    expect(o.orders).toEqual([
      { kind: 'act', unit: 'ar-lisane', action: 'espionage', target: { nation: 'gondarahl' } },
      { kind: 'act', unit: 'ar-lisane', action: 'informants', target: { settlement: 'irongate' }, fate: 1 },
      { kind: 'act', unit: 'ar-surveyors', action: 'sabotage', target: { settlement: 'irongate' }, aim: 'battlement' },
      { kind: 'act', unit: 'ar-surveyors', action: 'trade', target: { route: ['saltmarsh', 'argentum'] } },
    ]);
    expect(o.lines).toEqual([1, 2, 3, 4]);
  });

  it('keeps the listing order when action lines stand among other orders', () => {
    const o = read('rest ar-tidewatch\nWhisperer Lisane spies on Gondarahl\nrest ar-harbour-marines');
    expect(o.orders.map((x) => x.kind)).toEqual(['rest', 'act', 'rest']);
    expect(o.lines).toEqual([1, 2, 3]);
  });

  it('reads the generic form, the action by name or id, and "accept trade with"', () => {
    const o = read('act Espionage with Whisperer Lisane on Irongate\nWhisperer Lisane espionage 26,12');
    expect(o.refused).toBeUndefined();
    expect(o.orders).toEqual([
      { kind: 'act', unit: 'ar-lisane', action: 'espionage', target: { settlement: 'irongate' } },
      { kind: 'act', unit: 'ar-lisane', action: 'espionage', target: { hex: '26,12' } },
    ]);
    expect(read('accept trade with Argenta', asNationId('gondarahl')).orders).toEqual([{ kind: 'accept_trade', with: 'argenta' }]);
  });

  it('reads action lines inside a YAML sheet, and YAML act orders', () => {
    const sheet = readYamlSheet('nation: argenta\nturn: 1\norders:\n  - Whisperer Lisane spies on Gondarahl\n  - act: Guild Surveyors\n    action: sabotage\n    target: Irongate\n    aim: work\n');
    const o = interpretSheet(sheet, argenta, open.campaign, state).orders;
    expect(o.refused).toBeUndefined();
    expect(o.orders).toEqual([
      { kind: 'act', unit: 'ar-lisane', action: 'espionage', target: { nation: 'gondarahl' } },
      { kind: 'act', unit: 'ar-surveyors', action: 'sabotage', target: { settlement: 'irongate' }, aim: 'work' },
    ]);
  });

  it('says precisely what is wrong: an unknown target with a did-you-mean, a route of one settlement, an unknown aim, a line with no verb', () => {
    const o = read('Whisperer Lisane spies on Irongte\nGuild Surveyors opens trade between Saltmarsh\nGuild Surveyors sabotages Irongate aiming at the moon\nWhisperer Lisane dances in Irongate');
    expect(o.orders).toEqual([]);
    const refused = [...(o.refused ?? [])].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    expect(refused.map((r) => r.line)).toEqual([1, 2, 3, 4]);
    expect(refused[0]).toMatchObject({ reason: 'no nation or settlement or hex "Irongte"' });
    expect(refused[0]?.hint).toContain('Irongate');
    expect(refused[1]?.reason).toBe('Trade route runs between two settlements, not 1');
    expect(refused[2]?.reason).toBe('cannot aim at "the moon"');
    expect(refused[3]?.reason).toMatch(/^unknown order "Whisperer"/);
    expect(refused[3]).not.toHaveProperty('unknownVerb');
  });

  it('tells the mailroom a mail of action lines only holds orders, and a mail of chatter does not', () => {
    expect(hasActionLines(readTextSheet('Whisperer Lisane spies on Gondarahl'), open.campaign)).toBe(true);
    expect(hasActionLines(readTextSheet('Thanks for the report, see you next turn'), open.campaign)).toBe(false);
    expect(hasActionLines(readTextSheet('Thanks! I think their envoy spies on us.'), open.campaign)).toBe(false);
    expect(hasActionLines(readTextSheet('Maybe we could trade silver next season'), open.campaign)).toBe(false);
  });

  it("files the demo's mailed orders as YAML that reads back to the same orders, Lisane's listening post with them", () => {
    const mail = readFileSync(join(DEMO, 'mail', 'inbox', '2026-03-06-argenta.eml'), 'utf8');
    const body = mail.slice(mail.indexOf('\r\n\r\n') + 4).replace(/\r\n/g, '\n');
    const first = interpretSheet(readMailSheet({ text: body, attachments: [] }).sheet, argenta, open.campaign, state).orders;
    expect(first.orders).toContainEqual({ kind: 'act', unit: 'ar-lisane', action: 'informants', target: { settlement: 'cinderford' } });
    const again = interpretSheet(readYamlSheet(ordersToYaml(first)), argenta, open.campaign, state).orders;
    expect(again.orders).toEqual(first.orders);
    const yaml = interpretSheet(readYamlSheet(readFileSync(join(DEMO, 'orders', '0001', 'argenta.yaml'))), argenta, open.campaign, state).orders;
    expect(yaml.orders.filter((o) => o.kind !== 'note')).toEqual(first.orders.filter((o) => o.kind !== 'note'));
  });

  it('echoes an action in the receipt as the engine understood it, and refuses one out of range there with the reason', () => {
    const sheet = readTextSheet('Nation: argenta\nTurn: 1\nWhisperer Lisane listens at Cinderford fate 1\nWhisperer Lisane spies on Gondarahl\nGuild Surveyors spies on Cinderford');
    const text = renderReceipt(buildReceipt({ campaign: open.campaign, state, sheet, nation: argenta }).receipt);
    expect(text).toContain("Informant 'Whisperer Lisane' (ar-lisane) listens at Cinderford (Informants' network: a d6 to beat 2, pledging 1 Fate)");
    expect(text).toContain("✗ Informant 'Whisperer Lisane' (ar-lisane) at 19,13 is 7 hexes from Kingdom of Gondarahl; Espionage reaches 3 hexes");
    expect(text).toMatch(/Construction Worker 'Guild Surveyors' \(ar-surveyors\) at 25,6 is \d+ hexes from Cinderford; Espionage reaches 3 hexes/);
  });

  it('writes an act order back as a line that reads back to the same order', () => {
    const first = read('Whisperer Lisane spies on Irongate fate 2\nGuild Surveyors opens trade between Saltmarsh and Argentum\nGuild Surveyors sabotages Irongate aiming at battlement').orders;
    for (const order of first) {
      for (const written of [orderText(order), orderText(order, orderNames(open.campaign, state, argenta))]) {
        const again = read(written);
        expect(again.refused, written).toBeUndefined();
        expect(again.orders, written).toEqual([order]);
      }
    }
  });
});

describe('an action aimed at an external structure (docs/rules.md X7)', () => {
  const westvalia = asNationId('westvalia');
  // An Argentan mine beside West Valia's Old Thunder (2,8), and one far out of its sight.
  const withMines = (): GameState => ({
    ...state,
    externals: { ['x-9' as never]: { id: 'x-9', type: 'mine', nation: argenta, hex: '3,8' }, ['x-10' as never]: { id: 'x-10', type: 'mine', nation: argenta, hex: '30,20' } },
  });

  it('reads "Old Thunder bombards the mine at 3,8", checks its range to the structure, and writes it back by id', () => {
    const mined = withMines();
    const o = interpretSheet(readTextSheet('Old Thunder bombards the mine at 3,8'), westvalia, open.campaign, mined).orders;
    expect(o.refused).toBeUndefined();
    expect(o.orders).toEqual([{ kind: 'act', unit: 'wv-old-thunder', action: 'bombard', target: { external: 'x-9' } }]);
    const again = interpretSheet(readTextSheet(orderText(o.orders[0]!)), westvalia, open.campaign, mined).orders;
    expect(again.orders).toEqual(o.orders);
    const sheet = readTextSheet('Nation: westvalia\nTurn: 1\nOld Thunder bombards the mine at 3,8\nact bombard with Old Thunder on x-10\nOld Thunder bombards the mine at 3,8 aiming at work');
    const text = renderReceipt(buildReceipt({ campaign: open.campaign, state: mined, sheet, nation: westvalia }).receipt);
    expect(text).toContain("Thunder Cannon 'Old Thunder' (wv-old-thunder) bombards the Silver Mine at 3,8 (Bombardment: a d6 to beat 3)");
    expect(text).toContain('no settlement or structure "x-10"');
    expect(text).toContain('the Silver Mine at 3,8 is razed whole: leave out "aiming at work"');
  });

  it("offers the bombardment of a structure in range on the order sheet, an order the engine reads back", () => {
    const mined = withMines();
    const sheet = renderOrderTemplate(nationView(open.campaign, mined, mined, [], westvalia), open.campaign);
    const offer = sheet.split('\n').find((l) => l.includes('{act: wv-old-thunder, action: bombard, target: x-9}'));
    expect(offer).toContain('Bombardment on the Silver Mine at 3,8 (Duchy of Argenta): d6 + Fate to beat 3');
    expect(sheet).not.toContain('target: x-10}');
    const o = interpretSheet(readYamlSheet(`nation: westvalia\nturn: 1\norders:\n${offer!.replace('  # - ', '  - ')}\n`), westvalia, open.campaign, mined).orders;
    expect(o.orders).toEqual([{ kind: 'act', unit: 'wv-old-thunder', action: 'bombard', target: { external: 'x-9' } }]);
  });
});

describe('the guards\' word on spies (docs/rules.md D2)', () => {
  it('reads "hunt spies [fate N]" and "let spies go" in text and YAML, and writes them back the same', () => {
    const o = read('hunt spies fate 2\nlet spies go\nhunt the spies\nhunt dragons');
    expect(o.orders).toEqual([{ kind: 'hunt_spies', fate: 2 }, { kind: 'hunt_spies', letGo: true }, { kind: 'hunt_spies' }]);
    expect(o.refused?.map((r) => [r.line, r.reason])).toEqual([[4, 'write "hunt spies", with Fate if you wish: "hunt spies fate 2"']]);
    expect(o.orders.map((x) => orderText(x))).toEqual(['hunt spies fate 2', 'let spies go', 'hunt spies']);
    const yaml = ordersToYaml({ nation: argenta, turn: 1, orders: o.orders });
    const back = interpretSheet(readYamlSheet(yaml), argenta, open.campaign, state).orders;
    expect(back.orders).toEqual(o.orders);
    const bad = interpretSheet(readYamlSheet('nation: argenta\nturn: 1\norders:\n  - hunt_spies: maybe\n'), argenta, open.campaign, state).orders;
    expect(bad.refused?.[0]?.reason).toBe('"hunt_spies" is "hunt" or "let go", not "maybe"');
  });

  it('is checked into the receipt: the Fate pledged, one word a turn', () => {
    const sheet = readTextSheet('Token: x\nhunt spies fate 2\nlet spies go');
    const { receipt } = buildReceipt({ campaign: open.campaign, state, sheet, nation: argenta });
    expect(receipt.accepted.map((a) => a.summary)).toEqual(['Hunts any spy or saboteur whose action fails against you this turn, +2 for 2 of the 2 Fate pledged (spent only if they roll)']);
    expect(receipt.fate.pledged).toBe(2);
    expect(receipt.problems.map((p) => p.reason)).toEqual(['over the limit: one word to the guards a turn']);
  });
});
