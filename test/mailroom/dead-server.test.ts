import { existsSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { sendNotice, sendPending } from '../../src/mailroom/reports.js';
import { mailStatus, queueStatus, renderMailStatus } from '../../src/mailroom/status.js';
import type { MailServers } from '../support/mail-servers.js';
import { GM_ADDRESS, TestClock, demoCopy, imapCampaign, imapMailBlock, imapSecrets, setMailBlock, withMailServers, type Scratch } from './support.js';

/**
 * An SMTP server that never answers: a run gives up on it after the first timeouts and defers the rest at
 * once, the GM hears of it once per outage, and everything goes out when the server answers again. Real
 * sockets, real nodemailer (through campaign.yaml's smtp: block), the real relay for the recovery.
 */

/** Accepts connections and never says a word: a hung server. */
async function silentServer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => sockets.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port where nothing listens: connections are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Short timeouts for the servers that never answer (they are expected to run out); the real relay gets imapMailBlock's. */
const SHORT = 'timeouts: { connectMs: 400, greetingMs: 400, socketMs: 1000 }';

function useSmtp(scratch: Scratch, servers: MailServers, port: number): void {
  const timeouts = port === servers.smtp.port ? {} : { smtp: SHORT };
  setMailBlock(scratch.dir, imapMailBlock(servers, { smtpPort: port, ...timeouts, concurrency: 2, maxRuns: 5 }));
}

const NOTICE = { subject: 'the deadline moved', text: 'Orders are now due on Sunday.', nations: [] as string[] };

async function queued(dir: string) {
  return new OutboxQueue(join(dir, 'mail')).all();
}

const isOutageAlert = (q: { kind: string; message: { subject: string } }) => q.kind === 'alert' && q.message.subject.includes('the mail server does not answer');

describe('an SMTP server that never answers', () => {
  let servers!: MailServers;
  withMailServers((s) => {
    servers = s;
  });

  it('a run gives up after the first timeouts and defers the rest; the GM is alerted once; all goes out when it answers', async () => {
    const scratch = await imapCampaign(servers, 'dead-smtp', { yamlOrders: true });
    const silent = await silentServer();
    useSmtp(scratch, servers, silent.port);
    const clock = new TestClock('2026-03-08T12:00:00Z');
    const outage = join(scratch.dir, 'mail', 'smtp-outage.yaml');

    // Five notices; the hung server would cost 3 tries × 5 messages × the timeout without the breaker.
    // Each try that reaches the server is one connection and costs one timeout, so the connections
    // count what the run spent waiting; wall times depend on the machine's load and are not asserted.
    const first = await sendNotice(scratch.dir, { key: 'moved-1', ...NOTICE }, { clock, secrets: imapSecrets() });
    expect(first.sent).toEqual([]);
    expect(first.deferred).toHaveLength(5);
    expect(first.unreachable).toMatch(/ETEMP/);
    expect(silent.connections(), 'about two tries, not fifteen').toBeLessThanOrEqual(4);
    let queue = await queued(scratch.dir);
    expect(queue.filter(isOutageAlert)).toHaveLength(1);
    expect(queue.filter((q) => q.kind === 'notice').every((q) => q.status === 'pending' && q.nextAttemptAt !== undefined)).toBe(true);
    // Untried messages keep their count of failed runs: the server is at fault, not they.
    expect(queue.filter((q) => q.kind === 'notice' && q.attempts === 0).every((q) => q.failedRuns === 0 && q.lastError?.startsWith('not tried'))).toBe(true);
    expect(existsSync(outage)).toBe(true);
    // `fatecraft status` and `mail status` say so at once (the alert itself waits for the server).
    expect((await queueStatus(scratch.dir)).serverDown?.error).toBe(first.unreachable);
    expect(renderMailStatus(await mailStatus(scratch.dir))).toContain('THE MAIL SERVER HAS NOT ANSWERED since 2026-03-08T12:00:00.000Z');

    // Later runs while it stays down: as quick, and no second alert.
    for (let run = 0; run < 3; run++) {
      clock.advance(60 * 60_000);
      const before = silent.connections();
      const again = await sendPending(scratch.dir, { clock, secrets: imapSecrets() });
      expect(again.sent).toEqual([]);
      expect(again.unreachable).toBeDefined();
      expect(silent.connections() - before).toBeLessThanOrEqual(4);
    }
    queue = await queued(scratch.dir);
    expect(queue.filter(isOutageAlert)).toHaveLength(1);
    expect(queue.filter((q) => q.status === 'failed')).toEqual([]);
    await silent.close();

    // The server answers again (the real relay): the notices and the one alert go out, the outage ends.
    useSmtp(scratch, servers, servers.smtp.port);
    clock.advance(60 * 60_000);
    const relayedBefore = servers.relay.relayed.length;
    const back = await sendPending(scratch.dir, { clock, secrets: imapSecrets() });
    expect(back.unreachable).toBeUndefined();
    expect(back.sent).toHaveLength(6);
    expect(existsSync(outage)).toBe(false);
    expect((await queueStatus(scratch.dir)).serverDown).toBeUndefined();
    const relayed = servers.relay.relayed.slice(relayedBefore);
    expect(relayed.filter((m) => m.to.includes(GM_ADDRESS) && m.raw.toString('utf8').includes('the mail server does not answer'))).toHaveLength(1);
    expect((await queued(scratch.dir)).every((q) => q.status === 'sent')).toBe(true);

    // A later outage is a new one: the GM hears of it too.
    useSmtp(scratch, servers, await closedPort());
    await sendNotice(scratch.dir, { key: 'moved-2', ...NOTICE }, { clock, secrets: imapSecrets() });
    expect((await queued(scratch.dir)).filter(isOutageAlert)).toHaveLength(2);
  });

  it('a refused connection counts as no answer: the run stops at once', async () => {
    const scratch = demoCopy('refused-smtp');
    useSmtp(scratch, servers, await closedPort());
    const summary = await sendNotice(scratch.dir, { key: 'moved', ...NOTICE }, { clock: new TestClock(), secrets: imapSecrets() });
    expect(summary.deferred).toHaveLength(5);
    expect(summary.unreachable).toMatch(/ECONNREFUSED|connect/i);
    const queue = await queued(scratch.dir);
    expect(queue.filter((q) => q.kind === 'notice').reduce((n, q) => n + q.attempts, 0)).toBeLessThanOrEqual(3);
  });
});
