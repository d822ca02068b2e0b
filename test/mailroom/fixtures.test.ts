import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { runTurn } from '../../src/jobs/run-turn.js';
import { turnRenderers } from '../../src/cli/renderers.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { Ledger } from '../../src/mailroom/ledger.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { readBounces } from '../../src/mailroom/ledger.js';
import { redactSecret } from '../../src/mail/redact.js';
import { tokenFingerprint } from '../../src/mailroom/file-orders.js';
import { ADDRESSES, FIXTURES, TOKENS, TestClock, addEmail, cleanupAll, demoCopy, dropInInbox, files, secrets, setMailBlock } from './support.js';

/**
 * The fixture table: every recorded mail in test/fixtures/mailroom, dropped into the inbox of a fresh copy of
 * the demo campaign, fetched once, and checked against its expected outcome in cases.yaml.
 */
interface Case {
  file: string;
  class: string;
  setup?: { ordersOnFile?: boolean; late?: boolean; retired?: Record<string, string>; shared?: string; maxMessageBytes?: number; resolved?: boolean };
  expect: {
    kind: string;
    reason?: string;
    nation?: string;
    nations?: string[];
    accepted?: number;
    problems?: number;
    answer: 'receipt' | 'reply' | 'none';
    gm?: boolean;
    folder?: 'Processed' | 'Quarantine';
    commands?: string[];
    resent?: boolean;
  };
  answerIncludes?: string[];
  answerExcludes?: string[];
  filedIncludes?: string[];
  filedExcludes?: string[];
  /** Text of the GM's alert. */
  gmIncludes?: string[];
  bounced?: string;
}

const cases = load(readFileSync(join(FIXTURES, 'cases.yaml'), 'utf8')) as Case[];
afterAll(cleanupAll);

describe('the fixture table', () => {
  it('covers at least 40 recorded messages, each with an expected outcome', () => {
    const emls = files(FIXTURES).filter((n) => n.endsWith('.eml'));
    expect(emls.length).toBeGreaterThanOrEqual(40);
    expect(cases.map((c) => c.file).sort()).toEqual(emls);
    const kinds = new Set(cases.map((c) => c.expect.kind));
    expect([...kinds].sort()).toEqual(['bounce', 'command', 'file', 'hold', 'ignore', 'refuse']);
  });

  it.each(cases.map((c) => [c.file, c] as const))('%s', async (_name, c) => {
    const scratch = demoCopy('fixture', { yamlOrders: c.setup?.ordersOnFile === true || c.setup?.resolved === true });
    const dir = scratch.dir;
    if (c.setup?.shared) {
      addEmail(dir, 'argenta', c.setup.shared);
      addEmail(dir, 'gondarahl', c.setup.shared);
    }
    if (c.setup?.maxMessageBytes) {
      setMailBlock(dir, `mail:\n  transport: folder\n  from: "The Silversheen Sea <turns@silversheen.test>"\n  gm: gm@silversheen.test\n  maxMessageBytes: ${c.setup.maxMessageBytes}\n`);
    }
    if (c.setup?.resolved) await runTurn(dir, { renderers: turnRenderers() });
    dropInInbox(dir, c.file, readFileSync(join(FIXTURES, c.file)));
    const before = existsSync(join(dir, 'orders', '0001', 'argenta.yaml')) ? readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8') : undefined;

    const retired = c.setup?.retired ? Object.fromEntries(Object.entries(c.setup.retired).map(([n, t]) => [n, [createHash('sha256').update(t).digest('hex')]])) : undefined;
    const summary = await fetchMail(dir, {
      clock: new TestClock('2026-03-08T12:00:00Z'),
      secrets: secrets(),
      deadline: 'Sun 8 Mar 2026 18:00 GMT',
      ...(c.setup?.late ? { acceptsOrders: () => false } : {}),
      ...(retired ? { retiredTokens: retired } : {}),
    });
    expect(summary.error).toBeUndefined();
    expect(summary.listed).toBe(1);

    // The decision, as recorded in the ledger.
    const [entry] = await new Ledger(join(dir, 'mail')).all();
    const decision = entry!.decision!;
    expect(decision.kind, `${c.file}: ${entry!.outcome}`).toBe(c.expect.kind);
    if (c.expect.reason) expect((decision as { reason?: string }).reason).toBe(c.expect.reason);
    if (c.expect.nation) expect((decision as { nation?: string }).nation).toBe(c.expect.nation);
    if (decision.kind === 'file' || decision.kind === 'hold') {
      if (c.expect.accepted !== undefined) expect(decision.receipt.accepted.length, entry!.outcome).toBe(c.expect.accepted);
      if (c.expect.problems !== undefined) expect(decision.receipt.problems.length, JSON.stringify(decision.receipt.problems)).toBe(c.expect.problems);
    }
    if (decision.kind === 'command') expect(decision.commands).toEqual(c.expect.commands);
    if (decision.kind === 'bounce') expect(decision.nations).toEqual(c.expect.nations);

    // Where the message went: out of the inbox, into Processed or Quarantine.
    const folder = c.expect.folder ?? 'Processed';
    expect(entry!.status).toBe('done');
    expect(entry!.folder).toBe(folder);
    expect(files(join(dir, 'mail', 'inbox'))).toEqual([]);
    expect(files(join(dir, 'mail', folder.toLowerCase()))).toEqual([c.file]);

    // What was filed: only accepted orders, with the mail beside them; otherwise the file on disk is untouched.
    const filed = join(dir, 'orders', '0001', 'argenta.yaml');
    if (decision.kind === 'file') {
      const text = readFileSync(join(dir, 'orders', '0001', `${decision.nation}.yaml`), 'utf8');
      // The mail as received, but for the nation's token: replaced by its fingerprint (issue 33).
      const mail = readFileSync(join(dir, 'orders', '0001', `${decision.nation}.eml`));
      const token = TOKENS[decision.nation]!;
      expect(mail.includes(token)).toBe(false);
      expect(mail).toEqual((await redactSecret(readFileSync(join(FIXTURES, c.file)), token, tokenFingerprint(token))).bytes);
      for (const s of c.filedIncludes ?? []) expect(text).toContain(s);
      for (const s of c.filedExcludes ?? []) expect(text).not.toContain(s);
    } else {
      expect(existsSync(filed) ? readFileSync(filed, 'utf8') : undefined).toBe(before);
      expect(existsSync(join(dir, 'orders', '0001', 'argenta.eml'))).toBe(false);
    }

    // What was answered, and to whom: queued and sent (written to mail/outbox as .eml).
    const queue = await new OutboxQueue(join(dir, 'mail')).all();
    const answers = queue.filter((q) => q.kind === 'receipt' || q.kind === 'reply');
    const alerts = queue.filter((q) => q.kind === 'alert');
    if (c.expect.answer === 'none') {
      expect(answers).toEqual([]);
    } else {
      expect(answers.map((a) => a.kind)).toEqual([c.expect.answer]);
      const answer = answers[0]!;
      expect(answer.status).toBe('sent');
      expect(answer.message.headers?.['Auto-Submitted']).toBe('auto-replied');
      expect(answer.message.to).toHaveLength(1);
      const view = `Subject: ${answer.message.subject}\nIn-Reply-To: ${answer.message.inReplyTo ?? ''}\n\n${answer.message.text}`;
      for (const s of c.answerIncludes ?? []) expect(view).toContain(s);
      for (const s of c.answerExcludes ?? []) expect(view).not.toContain(s);
      // Answers go to the sender when registered, never to a Reply-To.
      if (c.expect.nation && decision.kind !== 'refuse') expect(answer.message.to).toEqual([ADDRESSES[c.expect.nation]]);
    }
    expect(alerts.length > 0, `GM alert for ${c.file}`).toBe(c.expect.gm === true);
    for (const s of c.gmIncludes ?? []) expect(alerts.map((a) => a.message.text).join('\n')).toContain(s);
    if (c.expect.resent) expect(queue.filter((q) => q.kind === 'report').map((q) => q.message.to)).toEqual([[ADDRESSES.argenta]]);
    if (c.bounced) expect((await readBounces(join(dir, 'mail'))).map((b) => b.address)).toEqual([c.bounced]);
    expect(files(join(dir, 'mail', 'outbox'))).toHaveLength(queue.length);
    scratch.cleanup();
  });
});
