/**
 * SmtpOutbox with `connections`: receipts go out over a few kept connections, not one each, and a kept
 * connection the server drops costs no message. A plain smtp-server on loopback counts the connections.
 */
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpOutbox } from '../../src/mail/smtp-outbox.js';
import type { OutboundMessage } from '../../src/mail/types.js';

interface Counting {
  port: number;
  connections: number;
  messages: string[];
  /** Drops every open connection, as a server does with idle ones. */
  dropAll(): void;
  close(): Promise<void>;
}

async function countingServer(): Promise<Counting> {
  const sockets = new Set<Socket>();
  const counting = { connections: 0, messages: [] as string[] };
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onConnect: (_session, callback) => {
      counting.connections += 1;
      callback();
    },
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('end', () => {
        counting.messages.push(/^Message-ID: (.*)$/im.exec(Buffer.concat(chunks).toString())?.[1]?.trim() ?? '?');
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    get connections() {
      return counting.connections;
    },
    messages: counting.messages,
    dropAll: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const message = (i: number): OutboundMessage => ({
  messageId: `<pool-${i}@game.test>`,
  date: '2026-03-08T12:00:00Z',
  from: 'turns@game.test',
  to: ['player@game.test'],
  subject: `receipt ${i}`,
  text: `Your orders ${i} are filed.\n`,
});

describe('SmtpOutbox with kept connections', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0)) await step();
  });

  it('sends twelve messages, three at a time, over at most three connections', async () => {
    const server = await countingServer();
    const outbox = new SmtpOutbox({ host: '127.0.0.1', port: server.port, connections: 3 });
    cleanup.push(() => outbox.close(), () => server.close());
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => outbox.send(message(i))));
    expect(results.every((r) => r.accepted.includes('player@game.test'))).toBe(true);
    expect(server.messages.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `<pool-${i}@game.test>`).sort());
    expect(server.connections).toBeLessThanOrEqual(3);
  });

  it('without kept connections, one connection a message (as before)', async () => {
    const server = await countingServer();
    const outbox = new SmtpOutbox({ host: '127.0.0.1', port: server.port });
    cleanup.push(() => outbox.close(), () => server.close());
    for (let i = 0; i < 4; i++) await outbox.send(message(i));
    expect(server.connections).toBe(4);
  });

  it('a kept connection the server dropped while idle costs no message: the next one opens a new connection', async () => {
    const server = await countingServer();
    const outbox = new SmtpOutbox({ host: '127.0.0.1', port: server.port, connections: 2 });
    cleanup.push(() => outbox.close(), () => server.close());
    await Promise.all([0, 1].map((i) => outbox.send(message(i))));
    server.dropAll();
    await new Promise((resolve) => setTimeout(resolve, 50)); // the client sees the close
    await Promise.all([2, 3, 4].map((i) => outbox.send(message(i))));
    expect(server.messages).toHaveLength(5);
    expect(server.connections).toBeGreaterThan(1);
  });
});
