import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../src/web/desk.js';
import { decodeEntities } from '../report/support.js';
import { Client, DEMO, deskOver, startedDemo, TOKENS, type DeskCampaignCopy } from './support.js';

/**
 * The orders on file as the order page shows them, found by the one rule of the order folder
 * (src/campaign/order-folder.ts) that every command follows: <nation>.yaml, .yml or .txt, a mail's .eml only
 * beside the sheet filed from it, and two files of one nation read as neither.
 */
let copy: DeskCampaignCopy;
let desk: Desk;
let client: Client;
const base = '/c/silversheen';
const folder = () => join(copy.dir, 'orders', '0001');

beforeAll(async () => {
  copy = await startedDemo('forms');
  desk = deskOver([copy]);
  client = new Client(desk);
  expect((await client.signInWithToken('silversheen', TOKENS.argenta!)).status).toBe(303);
});
afterAll(() => copy?.cleanup());

const clear = () => ['argenta.yaml', 'argenta.yml', 'argenta.txt', 'argenta.eml'].forEach((name) => rmSync(join(folder(), name), { force: true }));
const ordersPage = async () => decodeEntities((await client.get(`${base}/orders`)).text);

describe('the orders on file, in every form the folder takes', () => {
  it('text orders (<nation>.txt) show, the form filled with them, the receipt pointing at their lines', async () => {
    clear();
    writeFileSync(join(folder(), 'argenta.txt'), 'hold Harbour Marines\nmove Argentum Gaurd to 17,5\n');
    const page = await ordersPage();
    expect(page).toContain('What is on file for turn 1');
    expect(page).toContain('filled in from your orders on file');
    expect(page).toContain('hold Harbour Marines\nmove Argentum Gaurd to 17,5');
    expect(page).toMatch(/data-line="2">line 2<\/a>: <q>move Argentum Gaurd to 17,5<\/q>/);
    expect(page).toContain('1 valid, 1 with problems');
  });

  it('an order sheet named <nation>.yml shows as <nation>.yaml does', async () => {
    clear();
    copyFileSync(join(DEMO, 'orders', '0001', 'argenta.yaml'), join(folder(), 'argenta.yml'));
    const page = await ordersPage();
    expect(page).toContain('What is on file for turn 1');
    expect(page).toMatch(/On file\. All \d+ orders are valid\./);
  });

  it('a mail (.eml) alone is not orders, as for every command; beside the sheet filed from it, the sheet shows', async () => {
    clear();
    writeFileSync(join(folder(), 'argenta.eml'), 'From: someone@example.org\r\nSubject: orders\r\n\r\nhold Harbour Marines\r\n');
    expect(await ordersPage()).not.toContain('What is on file for turn 1');
    copyFileSync(join(DEMO, 'orders', '0001', 'argenta.yaml'), join(folder(), 'argenta.yaml'));
    const page = await ordersPage();
    expect(page).toContain('What is on file for turn 1');
    expect(page).toMatch(/On file\. All \d+ orders are valid\./);
  });

  it('two order files of one nation: the page says neither counts until one goes', async () => {
    clear();
    copyFileSync(join(DEMO, 'orders', '0001', 'argenta.yaml'), join(folder(), 'argenta.yaml'));
    writeFileSync(join(folder(), 'argenta.txt'), 'hold Harbour Marines\n');
    const page = await ordersPage();
    expect(page).toContain('What is on file for turn 1');
    expect(page).toContain('two sets of orders on file');
    expect(page).not.toContain('filled in from your orders on file');
  });
});
