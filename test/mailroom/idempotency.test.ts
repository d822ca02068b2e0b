import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { sendReports } from '../../src/mailroom/reports.js';
import { FAULT_POINTS, type FaultHook, type FaultPoint } from '../../src/mailroom/runtime.js';
import { CLI, runBuilt } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';
import { ADDRESSES, FIXTURES, TestClock, cleanupAll, countingTransport, demoCopy, dropInInbox, everyFile, files, secrets, setMailBlock, snapshot } from './support.js';

/**
 * A run cut short between any two steps, then run again, ends exactly where an uninterrupted run ends: no
 * order lost, none filed twice, no answer or report missing or sent twice. Cuts are simulated by a fault
 * hook throwing at each named point (every occurrence in turn), and for real by SIGKILL of a process of the
 * built CLI (the runs that are not killed run the same command in this process).
 */
afterAll(cleanupAll);

const NOW = '2026-03-08T12:00:00Z';

/** A player who asks the same thing seven times: past both flood limits (see mailbox). */
const FLOODER = ADDRESSES.westvalia!;
const FLOOD = 7;

function floodMail(i: number): string {
  return [`From: Thane <${FLOODER}>`, 'To: The Silversheen Sea <turns@silversheen.test>', `Subject: deadline? (${i})`, 'Date: Sat, 7 Mar 2026 10:00:00 +0000', `Message-ID: <flood-${i}@westvalia.test>`, '', 'When is the deadline?', ''].join('\r\n');
}

/**
 * Three of the demo's order mails, one mail of each other kind, a second delivery of one of them, and seven
 * mails from one player with limits of four messages and three answers a day: the first three are answered,
 * the fourth is not (reply limit), the last three are ignored as a flood, and the GM is told once.
 */
function mailbox(label: string) {
  const scratch = demoCopy(label, { yamlOrders: false, demoMail: true });
  setMailBlock(
    scratch.dir,
    `mail:
  transport: folder
  from: "The Silversheen Sea <turns@silversheen.test>"
  gm: gm@silversheen.test
  flood: { perSenderPerDay: 4, repliesPerAddressPerDay: 3 }
`,
  );
  for (let i = 1; i <= FLOOD; i++) dropInInbox(scratch.dir, `flood-${i}.eml`, floodMail(i));
  for (const nation of ['vulcanstille', 'westvalia']) rmSync(join(scratch.dir, 'mail', 'inbox', `2026-03-07-${nation}.eml`));
  for (const name of ['26-missing-token.eml', '39-auto-replied.eml', '47-dsn-bounce.eml', '50-command-deadline.eml']) {
    dropInInbox(scratch.dir, name, readFileSync(join(FIXTURES, name)));
  }
  // The same message delivered twice (same Message-ID, other file: another delivery path).
  dropInInbox(scratch.dir, 'zz-duplicate-of-grarkul.eml', readFileSync(join(scratch.dir, 'mail', 'inbox', '2026-03-07-grarkul.eml')));
  return scratch;
}

class Crash extends Error {}

/** Throws at the n-th time the run passes `point`. */
function crashAt(point: FaultPoint, n: number): FaultHook {
  let seen = 0;
  return (p: FaultPoint) => {
    if (p === point && ++seen === n) throw new Crash(`crash at ${p} #${n}`);
  };
}

const merge = (into: Map<string, number>, from: Map<string, number>) => {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
};

describe('fetch: interrupted between every two steps', async () => {
  const base = mailbox('baseline');
  const baseTransport = countingTransport(base.dir, 1);
  const baseline = await fetchMail(base.dir, { clock: new TestClock(NOW), secrets: secrets(), transport: baseTransport });
  const expected = await snapshot(base.dir);
  const expectedFiles = everyFile(base.dir);

  it('the uninterrupted run handles every message once, and stops answering the flood', () => {
    expect(baseline.listed).toBe(8 + FLOOD);
    expect(baseline.filed.map((f) => f.nation).sort()).toEqual(['argenta', 'gondarahl', 'grarkul']);
    expect([baseline.refused, baseline.ignored, baseline.bounces, baseline.commands]).toEqual([1, 1 + 3, 1, 1 + 4]);
    const outcomes = baseline.outcomes.map((o) => o.outcome).filter((o) => o.includes('westvalia'));
    expect(outcomes.filter((o) => o.startsWith('command') && !o.includes('no answer'))).toHaveLength(3);
    expect(outcomes.filter((o) => o.includes('no answer: reply limit'))).toHaveLength(1);
    expect(baseline.outcomes.filter((o) => o.outcome.startsWith('ignored (flood)'))).toHaveLength(3);
    const alerts = Object.keys(expectedFiles).filter((f) => f.startsWith('mail/outbox-queue/') && expectedFiles[f]!.includes('Flood of mail from'));
    expect(alerts).toHaveLength(1);
    expect(baseline.alreadyHandled).toBe(1); // the second delivery
    expect([...baseTransport.sends.values()].every((n) => n === 1)).toBe(true);
    expect(files(join(base.dir, 'mail', 'inbox'))).toEqual([]);
  });

  const inbound = FAULT_POINTS.filter((p) => !['after-queue-report', 'before-send', 'after-send', 'after-mark'].includes(p));
  const outbound: FaultPoint[] = ['before-send', 'after-send', 'after-mark'];
  for (const point of [...inbound, ...outbound]) {
    it(`cut at ${point} (1st, 3rd, 6th and 10th time), then run again: the same end`, async () => {
      for (const n of [1, 3, 6, 10]) {
        const scratch = mailbox(`cut-${point}-${n}`);
        const transport = countingTransport(scratch.dir, 1);
        const hook = crashAt(point, n);
        const clock = new TestClock(NOW);
        let crashed = false;
        try {
          await fetchMail(scratch.dir, { clock, secrets: secrets(), transport, faults: hook });
        } catch (error) {
          expect(error).toBeInstanceOf(Crash);
          crashed = true;
        }
        if (!crashed) {
          expect(n, `${point} is passed at least once`).toBeGreaterThan(1);
          scratch.cleanup();
          break; // the point occurs fewer than n times
        }
        const sends = new Map(transport.sends);
        const again = countingTransport(scratch.dir, 1);
        await fetchMail(scratch.dir, { clock, secrets: secrets(), transport: again });
        merge(sends, again.sends);
        expect(await snapshot(scratch.dir), `${point} #${n}`).toEqual(expected);
        expect(everyFile(scratch.dir), `${point} #${n}`).toEqual(expectedFiles);
        for (const [id, count] of sends) {
          // The one window no SMTP client closes: the server took it, the process died before noting it.
          expect(count, `${id} after a cut at ${point} #${n}`).toBe(point === 'after-send' && id === [...transport.sends.keys()].at(-1) ? 2 : 1);
        }
        expect([...sends.keys()].sort()).toEqual([...baseTransport.sends.keys()].sort());
        scratch.cleanup();
      }
    });
  }
});

describe('reports: interrupted while sending', async () => {
  // Turn 1 resolved once; each case starts from a copy of it.
  const resolved = demoCopy('reports-resolved');
  await runTurn(resolved.dir, { renderers: turnRenderers() });
  const prepare = async (label: string) => {
    const scratch = demoCopy(label);
    rmSync(scratch.dir, { recursive: true });
    cpSync(resolved.dir, scratch.dir, { recursive: true });
    return scratch;
  };
  const base = await prepare('reports-baseline');
  const baseTransport = countingTransport(base.dir, 1);
  await sendReports(base.dir, 1, { clock: new TestClock(NOW), secrets: secrets(), transport: baseTransport });
  const expected = await snapshot(base.dir);
  const expectedFiles = everyFile(base.dir);

  it('sends five reports and the GM report, once each; the GM report lists the five', async () => {
    expect(baseTransport.sends.size).toBe(6);
    expect(files(join(base.dir, 'mail', 'outbox'))).toHaveLength(6);
    const gm = (await new OutboxQueue(join(base.dir, 'mail')).all()).find((q) => q.kind === 'gm-report');
    expect(gm?.message.text).toContain('Reports queued for: argenta, gondarahl, grarkul, vulcanstille, westvalia.');
  });

  const cuts = { 'after-queue-report': [1, 3, 5], 'before-send': [1, 6], 'after-send': [1, 6], 'after-mark': [1, 6] } as const;
  for (const [point, ns] of Object.entries(cuts) as [FaultPoint, readonly number[]][]) {
    it(`cut at ${point} (${ns.join(', ')}), then again: each report once, and the GM told of all of them`, async () => {
      for (const n of ns) {
        const scratch = await prepare(`reports-${point}-${n}`);
        const transport = countingTransport(scratch.dir, 1);
        await expect(sendReports(scratch.dir, 1, { clock: new TestClock(NOW), secrets: secrets(), transport, faults: crashAt(point, n) })).rejects.toBeInstanceOf(Crash);
        const sends = new Map(transport.sends);
        const again = countingTransport(scratch.dir, 1);
        await sendReports(scratch.dir, 1, { clock: new TestClock(NOW), secrets: secrets(), transport: again });
        merge(sends, again.sends);
        expect(await snapshot(scratch.dir)).toEqual(expected);
        expect(everyFile(scratch.dir), `${point} #${n}`).toEqual(expectedFiles);
        expect([...sends.keys()].sort()).toEqual([...baseTransport.sends.keys()].sort());
        const twice = [...sends].filter(([, c]) => c > 1).map(([id]) => id);
        expect(twice).toEqual(point === 'after-send' ? [[...transport.sends.keys()].at(-1)] : []);
        scratch.cleanup();
      }
    });
  }
});

/** The secrets file of the demo's tokens, in a scratch copy's root. */
function secretsFileIn(root: string): string {
  const file = join(root, 'secrets.yaml');
  writeFileSync(file, 'argenta: silver-sails-1021\ngondarahl: starkrock-deep\ngrarkul: bloodtusk-bones\nvulcanstille: ash-and-chains\nwestvalia: brass-and-thunder\n', { mode: 0o600 });
  return file;
}

/** A command on a campaign run in this process, or (with a failpoint) as a process of the built CLI killed there. */
function commandRunner(args: (dir: string) => string[], env: Record<string, string>) {
  return {
    run: (dir: string) => runInProcess(args(dir), { env }),
    killedAt: (dir: string, failpoint: string) => runBuilt(args(dir), { env: { ...env, FATECRAFT_MAIL_FAILPOINT: failpoint } }),
  };
}

describe('a real SIGKILL of `fatecraft mail fetch`', () => {
  it.skipIf(!existsSync(CLI))('killed at points before, in and past the flood, then run again: every file of the campaign as after one run', async () => {
    const base = mailbox('sigkill-baseline');
    const { run, killedAt } = commandRunner((dir) => ['mail', 'fetch', dir, '--quiet'], { FATECRAFT_SECRETS: secretsFileIn(base.root), FATECRAFT_NOW: NOW });
    expect((await run(base.dir)).status).toBe(0);
    const expected = everyFile(base.dir);
    expect(Object.keys(expected).filter((f) => f.startsWith('mail/ledger/'))).toHaveLength(8 + FLOOD - 1);

    // The flood mails are the 8th to the 14th in the inbox; the 10th is the third of them.
    for (const failpoint of ['after-file:3', 'after-mark:2', 'after-decide:10', 'after-done:10']) {
      const scratch = mailbox(`sigkill-${failpoint.replace(':', '-')}`);
      const killed = killedAt(scratch.dir, failpoint);
      expect(killed.signal, `${failpoint}: ${killed.stdout}${killed.stderr}`).toBe('SIGKILL');
      expect(existsSync(join(scratch.dir, 'mail', '.mail.lock'))).toBe(true); // left behind by the dead process
      const again = await run(scratch.dir);
      expect(again.status, again.stderr).toBe(0);
      expect(everyFile(scratch.dir), failpoint).toEqual(expected);
    }
  });
});

describe('a real SIGKILL of `fatecraft tick` while it reads the mail', () => {
  it.skipIf(!existsSync(CLI))('killed in the flood, then run again: every file of the mail folder and the orders as after one tick', async () => {
    const base = mailbox('tick-sigkill-baseline');
    // A Sunday before the deadline (Sundays 18:00 London): the tick reads the mail and resolves nothing.
    const { run, killedAt } = commandRunner((dir) => ['tick', dir], { FATECRAFT_SECRETS: secretsFileIn(base.root), FATECRAFT_NOW: '2026-03-08T13:00:00Z' });
    const mailAndOrders = (dir: string) => Object.fromEntries(Object.entries(everyFile(dir)).filter(([f]) => f.startsWith('mail/') || f.startsWith('orders/')));
    const first = await run(base.dir);
    expect(first.status, `${first.stdout}${first.stderr}`).toBe(0);
    const expected = mailAndOrders(base.dir);
    expect(Object.keys(expected).filter((f) => f.startsWith('mail/ledger/'))).toHaveLength(8 + FLOOD - 1);

    const scratch = mailbox('tick-sigkill-after-done-10');
    const killed = killedAt(scratch.dir, 'after-done:10');
    expect(killed.signal, `${killed.stdout}${killed.stderr}`).toBe('SIGKILL');
    const again = await run(scratch.dir);
    expect(again.status, `${again.stdout}${again.stderr}`).toBe(0);
    expect(mailAndOrders(scratch.dir)).toEqual(expected);
  });
});

describe('a real SIGKILL of `fatecraft mail send`', () => {
  it.skipIf(!existsSync(CLI))('killed after queueing the 3rd report, or after marking the 2nd sent, then run again: every file as after one run, the GM told of all five', async () => {
    const resolved = demoCopy('send-sigkill-resolved');
    await runTurn(resolved.dir, { renderers: turnRenderers() });
    const copy = (label: string) => {
      const scratch = demoCopy(label);
      rmSync(scratch.dir, { recursive: true });
      cpSync(resolved.dir, scratch.dir, { recursive: true });
      return scratch;
    };
    const { run, killedAt } = commandRunner((dir) => ['mail', 'send', dir, '--turn', '1'], { FATECRAFT_SECRETS: secretsFileIn(resolved.root), FATECRAFT_NOW: NOW });
    const base = copy('send-sigkill-baseline');
    expect((await run(base.dir)).status).toBe(0);
    const expected = everyFile(base.dir);
    const gm = (await new OutboxQueue(join(base.dir, 'mail')).all()).find((q) => q.kind === 'gm-report');
    expect(gm?.message.text).toContain('Reports queued for: argenta, gondarahl, grarkul, vulcanstille, westvalia.');

    for (const failpoint of ['after-queue-report:3', 'after-mark:2']) {
      const scratch = copy(`send-sigkill-${failpoint.replace(':', '-')}`);
      const killed = killedAt(scratch.dir, failpoint);
      expect(killed.signal, `${failpoint}: ${killed.stdout}${killed.stderr}`).toBe('SIGKILL');
      const again = await run(scratch.dir);
      expect(again.status, again.stderr).toBe(0);
      expect(everyFile(scratch.dir), failpoint).toEqual(expected);
    }
  });
});
