import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTurn } from '../../src/jobs/run-turn.js';
import { turnRenderers } from '../../src/cli/renderers.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { acceptHeld } from '../../src/mailroom/held.js';
import { Ledger } from '../../src/mailroom/ledger.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { mailStatus, renderMailStatus } from '../../src/mailroom/status.js';
import { redactSecret } from '../../src/mail/redact.js';
import { tokenFingerprint } from '../../src/mailroom/file-orders.js';
import { ADDRESSES, FIXTURES, TOKENS, TestClock, cleanupAll, demoCopy, dropInInbox, secrets } from './support.js';

/** Orders whose DMARC check failed are held; `fatecraft mail accept` files them as if it had passed. */
afterAll(cleanupAll);

async function fetchHeld(label: string, opts: { yamlOrders?: boolean } = {}) {
  const { dir } = demoCopy(label, { yamlOrders: opts.yamlOrders ?? false });
  const raw = readFileSync(join(FIXTURES, '75-dmarc-fail-gmail.eml'));
  dropInInbox(dir, '75.eml', raw);
  const summary = await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
  return { dir, raw, summary };
}

describe('held orders', () => {
  it('are kept for the GM, and filed with their mail and a receipt when the GM accepts them', async () => {
    const { dir, raw, summary } = await fetchHeld('held-accept');
    expect(summary.held).toBe(1);
    expect(summary.filed).toEqual([]);
    const orders = join(dir, 'orders', '0001', 'argenta.yaml');
    expect(existsSync(orders)).toBe(false);
    expect(renderMailStatus(await mailStatus(dir))).toContain("Held for you (1) — their DMARC check failed; fatecraft mail accept <campaign> <key> files one:\n  mid:<f75@argenta.test>");

    const result = await acceptHeld(dir, '<f75@argenta.test>', { clock: new TestClock('2026-03-08T13:00:00Z'), secrets: secrets() });
    expect(result).toMatchObject({ key: 'mid:<f75@argenta.test>', nation: 'argenta', turn: 1, replaced: false });
    expect(result.sent.sent).toHaveLength(1);
    const filed = readFileSync(orders, 'utf8');
    expect(filed).toContain('Orders of argenta for turn 1, filed from mail.');
    expect(filed).toContain('ar-silver-gull');
    expect(readFileSync(join(dir, 'orders', '0001', 'argenta.eml'))).toEqual((await redactSecret(raw, TOKENS.argenta!, tokenFingerprint(TOKENS.argenta!))).bytes);

    const queue = await new OutboxQueue(join(dir, 'mail')).all();
    const toDuke = queue.filter((q) => q.message.to.includes(ADDRESSES.argenta!));
    expect(toDuke.map((q) => q.kind)).toEqual(['reply', 'receipt']);
    expect(toDuke[0]!.message.text).toContain('held for the GM and not yet on file');
    expect(toDuke[1]!.message.text).toContain('Your orders for Duchy of Argenta, turn 1, are on file');
    expect(toDuke[1]!.message.text).toContain('Accepted (2)');
    expect(toDuke.every((q) => q.status === 'sent')).toBe(true);

    const [entry] = await new Ledger(join(dir, 'mail')).all();
    expect(entry!.decision!.kind).toBe('file');
    expect(entry!.outcome).toContain("filed on the GM's word");
    expect(entry!.history?.[0]?.outcome).toMatch(/^held for the GM/);
    expect(readdirSync(join(dir, 'mail', 'held'))).toEqual([]); // the kept mail now lies beside the orders

    await expect(acceptHeld(dir, 'mid:<f75@argenta.test>', { clock: new TestClock(), secrets: secrets() })).rejects.toThrow('was accepted already');
    await expect(acceptHeld(dir, 'nothing@here', { clock: new TestClock(), secrets: secrets() })).rejects.toThrow('no message "nothing@here" in the mail ledger');
  });

  it('say so when they replace the orders on file', async () => {
    const { dir } = await fetchHeld('held-replace', { yamlOrders: true });
    const result = await acceptHeld(dir, 'f75@argenta.test', { clock: new TestClock('2026-03-08T13:00:00Z'), secrets: secrets() });
    expect(result.replaced).toBe(true);
    const receipt = (await new OutboxQueue(join(dir, 'mail')).all()).find((q) => q.kind === 'receipt');
    expect(receipt?.message.text).toContain('replacing the orders you sent earlier');
  });

  it('can no longer be filed once their turn is resolved', { timeout: 60_000 }, async () => {
    const { dir } = await fetchHeld('held-late', { yamlOrders: true });
    await runTurn(dir, { renderers: turnRenderers() });
    await expect(acceptHeld(dir, 'f75@argenta.test', { clock: new TestClock(), secrets: secrets() })).rejects.toThrow('turn 1, which has been resolved since');
  });
});
