/**
 * The IMAP and SMTP transports against a real Dovecot and SMTP relay on loopback (test/support/mail-servers.ts).
 * Servers start once for the file; each test uses its own users so tests do not see each other's mail.
 */
import net from 'node:net';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailError } from '../../src/mail/errors.js';
import { ImapInbox } from '../../src/mail/imap-inbox.js';
import { parseInbound } from '../../src/mail/parse.js';
import { SmtpOutbox } from '../../src/mail/smtp-outbox.js';
import type { InboundMessage, InboxEntry, OutboundMessage } from '../../src/mail/types.js';
import { mailServersAvailable, startMailServers, type MailServers } from '../support/mail-servers.js';

// Without Dovecot (a developer machine that never ran .ci/mail-setup.sh) skip; in CI a missing server must fail.
const run = mailServersAvailable() || process.env.CI !== undefined;

describe.skipIf(!run)('IMAP inbox and SMTP outbox against Dovecot', () => {
  let servers: MailServers;
  const toClose: Array<{ close(): Promise<void> }> = [];
  let userCount = 0;

  beforeAll(async () => {
    servers = await startMailServers({
      users: { 'gm@game.test': 'gm-pass' },
      relayAuth: { user: 'fatecraft', pass: 'relay-pass' },
    });
  });

  afterAll(async () => {
    await Promise.all(toClose.map((transport) => transport.close()));
    await servers?.stop();
  });

  /** A fresh GM mailbox and player for one test. */
  async function freshUsers(): Promise<{ gm: string; player: string }> {
    userCount += 1;
    const gm = `gm${userCount}@game.test`;
    const player = `player${userCount}@game.test`;
    await servers.addUser(gm, 'gm-pass');
    await servers.addUser(player, 'player-pass');
    return { gm, player };
  }

  function inboxFor(user: string, options: { maxMessageBytes?: number; pass?: string } = {}): ImapInbox {
    const inbox = new ImapInbox({
      ...servers.imap,
      auth: { user, pass: options.pass ?? 'gm-pass' },
      ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
    });
    toClose.push(inbox);
    return inbox;
  }

  function outbox(options: { auth?: { user: string; pass: string }; port?: number } = {}): SmtpOutbox {
    const result = new SmtpOutbox({
      host: servers.smtp.host,
      port: options.port ?? servers.smtp.port,
      ...(options.auth === undefined ? {} : { auth: options.auth }),
    });
    toClose.push(result);
    return result;
  }

  /** Sends as a player would: their own mail client, through the relay. */
  async function playerSends(from: string, to: string, subject: string, text: string): Promise<string> {
    const transport = createTransport({ host: servers.smtp.host, port: servers.smtp.port, secure: false, logger: false });
    try {
      const info = await transport.sendMail({ from, to, subject, text });
      return info.messageId;
    } finally {
      transport.close();
    }
  }

  const downloaded = (entries: InboxEntry[]): InboundMessage[] =>
    entries.filter((entry): entry is InboundMessage => !entry.tooLarge);

  function report(gm: string, player: string, overrides: Partial<OutboundMessage> = {}): OutboundMessage {
    return {
      messageId: `report-${player}@fatecraft.game.test`,
      date: '2026-11-24T12:00:00Z',
      from: gm,
      to: [player],
      subject: 'Turn 3 report',
      text: 'Your armies advance.\n',
      ...overrides,
    };
  }

  it('receives a player mail over IMAP, moves it to Processed and gets a reply to the player', async () => {
    const { gm, player } = await freshUsers();
    const ordersId = await playerSends(player, gm, 'Orders turn 3', 'A1 moves to Ironford\n');

    const inbox = inboxFor(gm);
    const entries = await inbox.list();
    expect(entries).toHaveLength(1);
    const [orders] = downloaded(entries);
    expect(inbox.uidValidity).toMatch(/^\d+$/);
    expect(orders?.id).toBe(`imap:${inbox.uidValidity}:1`);
    expect(orders?.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const parsed = await parseInbound(orders!.raw);
    expect(parsed).toMatchObject({ subject: 'Orders turn 3', text: 'A1 moves to Ironford\n', messageId: ordersId });
    expect(parsed.from?.address).toBe(player);
    expect(parsed.headers.returnPath).toBe(`<${player}>`); // added by Dovecot on delivery

    await inbox.markProcessed(orders!.id, 'Processed');
    expect(await inbox.list()).toEqual([]);
    expect((await servers.readMailbox(gm, 'gm-pass', 'Processed')).map((m) => m.parsed.subject)).toEqual(['Orders turn 3']);
    await expect(inbox.markProcessed(orders!.id, 'Processed')).rejects.toMatchObject({ code: 'ENOTFOUND' });

    const result = await outbox({ auth: { user: 'fatecraft', pass: 'relay-pass' } }).send(
      report(gm, player, { inReplyTo: parsed.messageId, references: [parsed.messageId!], html: '<p>Your armies advance.</p>' }),
    );
    expect(result.accepted).toEqual([player]);
    expect(result.rejected).toEqual([]);
    expect(result.response).toMatch(/^250 /);

    const [received] = await servers.readMailbox(player, 'player-pass');
    expect(received?.parsed.subject).toBe('Turn 3 report');
    expect(received?.parsed.inReplyTo).toBe(ordersId);
    expect(received?.parsed.messageId).toBe(`<report-${player}@fatecraft.game.test>`);
    expect(received?.parsed.text).toBe('Your armies advance.\n');
  });

  it('quarantines, and lists oversized messages as tooLarge without downloading them', async () => {
    const { gm, player } = await freshUsers();
    await servers.deliver(`From: ${player}\r\nTo: ${gm}\r\nSubject: Huge map\r\n\r\n${'x'.repeat(5000)}\r\n`, gm);
    await servers.deliver(`From: ${player}\r\nTo: ${gm}\r\nSubject: Small\r\n\r\nhi\r\n`, gm);

    const inbox = inboxFor(gm, { maxMessageBytes: 2000 });
    const [huge, small] = await inbox.list();
    expect(huge).toMatchObject({ tooLarge: true, from: player, subject: 'Huge map' });
    expect(huge).not.toHaveProperty('raw');
    expect(huge?.size).toBeGreaterThan(5000);
    expect(small?.tooLarge).toBeFalsy();

    await inbox.markProcessed(huge!.id, 'Quarantine');
    expect((await inbox.list()).map((entry) => entry.id)).toEqual([small!.id]);
    expect((await servers.readMailbox(gm, 'gm-pass', 'Quarantine')).map((m) => m.parsed.subject)).toEqual(['Huge map']);
  });

  it('reconnects when Dovecot restarts between two fetches', async () => {
    const { gm, player } = await freshUsers();
    const inbox = inboxFor(gm);
    await servers.deliver(`From: ${player}\r\nSubject: before\r\n\r\n1\r\n`, gm);
    expect(await inbox.list()).toHaveLength(1);

    await servers.restartDovecot();
    await servers.deliver(`From: ${player}\r\nSubject: after\r\n\r\n2\r\n`, gm);

    const entries = downloaded(await inbox.list());
    const subjects = await Promise.all(entries.map(async (entry) => (await parseInbound(entry.raw)).subject));
    expect(subjects).toEqual(['before', 'after']);
    await inbox.markProcessed(entries[1]!.id, 'Processed');
    expect(await inbox.list()).toHaveLength(1);
  });

  it('retries once on a fresh connection when the old one turns out dead mid-command', async () => {
    const { gm, player } = await freshUsers();
    const proxy = await startProxy(servers.imap);
    const inbox = new ImapInbox({ ...proxy.endpoint, auth: { user: gm, pass: 'gm-pass' } });
    try {
      await servers.deliver(`From: ${player}\r\nSubject: one\r\n\r\n1\r\n`, gm);
      expect(await inbox.list()).toHaveLength(1);
      // Same tick: the client has not seen the close yet, so list() starts on the dead connection.
      proxy.dropConnections();
      const [entry] = await inbox.list();
      expect(proxy.connectionCount).toBe(2);

      proxy.dropConnections();
      await inbox.markProcessed(entry!.id, 'Processed');
      expect(proxy.connectionCount).toBe(3);
      expect(await inbox.list()).toEqual([]);
    } finally {
      await inbox.close();
      await proxy.close();
    }
  });

  it('maps a relay answering 451 to a retryable ETEMP, and the retry goes through', async () => {
    const { gm, player } = await freshUsers();
    const smtp = outbox();
    servers.relay.faults.failNext(2);
    for (let attempt = 0; attempt < 2; attempt++) {
      const failure = await smtp.send(report(gm, player)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MailError);
      expect(failure).toMatchObject({ code: 'ETEMP', responseCode: 451, retryable: true });
    }
    await expect(smtp.send(report(gm, player))).resolves.toMatchObject({ accepted: [player] });
    expect(await servers.readMailbox(player, 'player-pass')).toHaveLength(1);
  });

  it('maps a recipient refused with 550 to EPERM, and reports partial refusals without throwing', async () => {
    const { gm, player } = await freshUsers();
    const smtp = outbox();
    servers.relay.faults.refuseRecipient(player);
    try {
      const failure = await smtp.send(report(gm, player)).catch((error: unknown) => error);
      expect(failure).toMatchObject({ name: 'MailError', code: 'EPERM', responseCode: 550, retryable: false });

      const mixed = await smtp.send(report(gm, player, { to: [player, gm] }));
      expect(mixed.accepted).toEqual([gm]);
      expect(mixed.rejected).toEqual([player]);
    } finally {
      servers.relay.faults.reset();
    }
    // Unknown users are refused the same way, without any fault injected.
    await expect(smtp.send(report(gm, 'stranger@game.test'))).rejects.toMatchObject({ code: 'EPERM' });
  });

  it('reports bad credentials as EAUTH and unreachable servers as ETEMP', async () => {
    const { gm, player } = await freshUsers();
    await expect(inboxFor(gm, { pass: 'wrong' }).list()).rejects.toMatchObject({ code: 'EAUTH' });
    await expect(outbox({ auth: { user: 'fatecraft', pass: 'wrong' } }).send(report(gm, player))).rejects.toMatchObject({
      code: 'EAUTH',
    });

    const closedPort = await unusedPort();
    await expect(outbox({ port: closedPort }).send(report(gm, player))).rejects.toMatchObject({ code: 'ETEMP' });
    const unreachable = new ImapInbox({ host: '127.0.0.1', port: closedPort, auth: { user: gm, pass: 'gm-pass' } });
    await expect(unreachable.list()).rejects.toMatchObject({ code: 'ETEMP' });
    await unreachable.close();
  });
});

/** A TCP pass-through whose connections a test can cut, as a NAT timeout or server crash would. */
async function startProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let connectionCount = 0;
  const server = net.createServer((client) => {
    connectionCount += 1;
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: { host: '127.0.0.1', port },
    get connectionCount() {
      return connectionCount;
    },
    dropConnections: () => sockets.forEach((socket) => socket.destroy()),
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
