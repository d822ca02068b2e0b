import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, isSeq } from 'yaml';
import { outboxFileName } from '../../src/mail/folder-transport.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { sendReports } from '../../src/mailroom/reports.js';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { setReportSettings } from '../support/campaign-file.js';
import { cleanupAll, demoCopy, secrets, TestClock } from '../mailroom/support.js';
import { DEMO } from './support.js';

/**
 * The unsigned letter's swap test (issue 33): an unsigned letter must not be
 * tied to its sender by anything in its readers' reports — not its place among
 * the letters, a count, the spacing, an id, a time or a header. So the same
 * turn is played twice, the unsigned letter sent once by Argenta and once by
 * Gondarahl (each of them also signs a letter of its own), and every other
 * reader's report must come out byte for byte the same in every format: the
 * text, HTML, YAML, map and order sheet on disk, and the report mail as sent.
 */
afterAll(cleanupAll);

interface Letter {
  from: string;
  to: string[] | 'all';
  text: string;
  anonymous?: boolean;
}

// Signed letters to West Valia only: the other readers learn of Argenta and Gondarahl from nothing but the unsigned letter.
const SIGNED: Letter[] = [
  { from: 'argenta', to: ['westvalia'], text: 'Argenta greets the Thane: our ports are open to every honest flag.' },
  { from: 'gondarahl', to: ['westvalia'], text: 'Gondarahl sells silver at the spring fair, at the old price.' },
  { from: 'argenta', to: ['westvalia'], text: 'To the Thane: brass for silver, as agreed?' },
];
const UNSIGNED = (from: string): Letter[] => [
  { from, to: 'all', text: 'Beware the one who smiles at the ford: the spring will show whose friend he is.', anonymous: true },
  { from, to: ['grarkul', 'westvalia'], text: 'The orcs and the Valians should talk. A friend.', anonymous: true },
];
const READERS = ['grarkul', 'vulcanstille', 'westvalia'];

/** Appends letters to the demo's own turn-1 orders of each sender (the rest of its orders stay). */
function addLetters(dir: string, letters: Letter[]): void {
  for (const from of [...new Set(letters.map((l) => l.from))]) {
    const file = join(dir, 'orders', '0001', `${from}.yaml`);
    const doc = parseDocument(readFileSync(file, 'utf8'));
    const orders = doc.get('orders');
    if (!isSeq(orders)) throw new Error(`${file} has no orders list`);
    for (const l of letters.filter((x) => x.from === from)) orders.add(doc.createNode({ press: l.to, text: l.text, ...(l.anonymous ? { anonymous: true } : {}) }));
    writeFileSync(file, doc.toString());
  }
}

/** Every file of a reader: its reports on disk and its report mail as the folder transport sent it. */
async function readerFiles(dir: string, reader: string): Promise<Record<string, string>> {
  const reports = join(dir, 'turns', '0001', 'reports');
  const out: Record<string, string> = {};
  for (const name of readdirSync(reports).sort()) if (name.startsWith(`${reader}.`) || name === `${reader}-orders.yaml`) out[name] = readFileSync(join(reports, name), 'utf8');
  const mails = (await new OutboxQueue(join(dir, 'mail')).all()).filter((q) => q.kind === 'report' && q.about?.includes(` ${reader}`));
  expect(mails, `${reader}'s report mail`).toHaveLength(1);
  out['report mail'] = readFileSync(join(dir, 'mail', 'outbox', outboxFileName(mails[0]!.messageId)), 'latin1');
  return out;
}

async function play(label: string, unsignedFrom: string, settings: Record<string, unknown>): Promise<string> {
  const { dir } = demoCopy(label);
  const file = join(dir, 'campaign.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('rules:\n  newSettlementCost: 50\n', 'rules:\n  newSettlementCost: 50\n  press: { maxLength: 1000, perTurn: 5, anonymous: true, relay: withReport }\n'));
  setReportSettings(dir, settings);
  addLetters(dir, [...SIGNED, ...UNSIGNED(unsignedFrom)]);
  await runTurn(dir, { renderers: turnRenderers() });
  const sent = await sendReports(dir, 1, { clock: new TestClock('2026-03-15T18:00:00Z'), secrets: secrets() });
  expect(sent.sent.failed).toEqual([]);
  return dir;
}

for (const [what, settings] of [
  ['every nation listed in each report', {}],
  ['only the nations met listed (a big campaign)', { inlineNationsUpTo: 0 }],
] as const) {
  describe.skipIf(!existsSync(DEMO))(`an unsigned letter with its sender swapped: ${what}`, () => {
    let byArgenta: string;
    let byGondarahl: string;
    beforeAll(async () => {
      byArgenta = await play('swap-a', 'argenta', settings);
      byGondarahl = await play('swap-g', 'gondarahl', settings);
    }, 120_000);

    it('reaches its readers, and they read the same letters either way', () => {
      for (const reader of READERS) {
        const text = readFileSync(join(byArgenta, 'turns', '0001', 'reports', `${reader}.txt`), 'utf8');
        expect(text).toContain('An unsigned letter, to every nation:');
      }
      const westvalia = readFileSync(join(byArgenta, 'turns', '0001', 'reports', 'westvalia.txt'), 'utf8');
      expect(westvalia).toContain('From Duchy of Argenta, to West Valia:');
      expect(westvalia).toContain('From Kingdom of Gondarahl, to West Valia:');
      expect(readFileSync(join(byArgenta, 'turns', '0001', 'reports', 'westvalia.txt'), 'utf8')).toContain('An unsigned letter, to The Grarkul Tribes, West Valia:');
    });

    it("leaves every other reader's report the same byte for byte, in every format and in the mail", async () => {
      for (const reader of READERS) {
        const a = await readerFiles(byArgenta, reader);
        const g = await readerFiles(byGondarahl, reader);
        expect(Object.keys(a).length).toBeGreaterThanOrEqual(4);
        expect(Object.keys(g)).toEqual(Object.keys(a));
        for (const name of Object.keys(a)) expect(g[name], `${reader}: ${name} tells who sent the unsigned letter`).toBe(a[name]);
      }
    });
  });
}
