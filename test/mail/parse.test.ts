import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseInbound } from '../../src/mail/parse.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/mail');
const parseFixture = (name: string) => parseInbound(fs.readFileSync(path.join(fixtures, name)));

describe('parseInbound', () => {
  it('reads a plain CRLF message: addresses, threading headers, date, LF text', async () => {
    const mail = await parseFixture('plain.eml');
    expect(mail.from).toEqual({ name: 'Argenta Vale', address: 'argenta@game.test' });
    expect(mail.to).toEqual([{ name: 'Game Master', address: 'gm@game.test' }]);
    expect(mail.subject).toBe('Orders for turn 3');
    expect(mail.messageId).toBe('<orders-3@argenta.game.test>');
    expect(mail.inReplyTo).toBe('<report-2@game.test>');
    expect(mail.references).toEqual(['<report-1@game.test>', '<report-2@game.test>']);
    expect(mail.date).toBe('2026-11-23T09:15:00.000Z');
    expect(mail.text).toBe('nation: argenta\nturn: 3\norders:\n  - unit: A1\n    move: [2, 3]\n');
    expect(mail.headers).toEqual({ returnPath: '<argenta@game.test>' });
    expect(mail).toMatchObject({ isBounce: false, isAutoReply: false, isMailingList: false, attachments: [] });
  });

  it('decodes quoted-printable bodies with soft line breaks and RFC 2047 headers', async () => {
    const mail = await parseFixture('quoted-printable.eml');
    expect(mail.from).toEqual({ name: 'Jörg Müller', address: 'joerg@game.test' });
    expect(mail.subject).toBe('Befehle für Runde 3');
    expect(mail.text).toBe(
      'Die Armee in München marschiert nach Straßburg, und diese Zeile ist so lang, dass sie umbrochen werden musste.\nGrüße\n',
    );
    expect(mail.date).toBe('2026-11-23T09:00:00.000Z'); // +0100 normalised to UTC
  });

  it('decodes base64 bodies', async () => {
    const mail = await parseFixture('base64.eml');
    expect(mail.text).toBe('Flotte F2 segelt nach Nordhavn.\nZweite Zeile mit Ümlaut.\n');
  });

  it('converts an HTML-only message to text, dropping style and markup', async () => {
    const mail = await parseFixture('html-only.eml');
    expect(mail.text).toContain('A2 moves to Ironford');
    expect(mail.text).toContain('Thanks & good luck');
    expect(mail.text).not.toMatch(/<|color: red/);
  });

  it('prefers the text/plain alternative and collects every recipient', async () => {
    const mail = await parseFixture('alternative.eml');
    expect(mail.text).toBe('Plain part wins.');
    expect(mail.to.map((a) => a.address)).toEqual(['gm@game.test', 'gm2@game.test']);
    expect(mail.cc).toEqual([{ name: '', address: 'archive@game.test' }]);
  });

  it('decodes ISO-8859-1 bodies and headers', async () => {
    const mail = await parseFixture('iso-8859-1.eml');
    expect(mail.from?.name).toBe('Renée');
    expect(mail.subject).toBe("Ordres pour l'été");
    expect(mail.text).toBe("L'armée reste à Châteaubrun.\n");
  });

  it('joins format=flowed soft breaks, including in quoted lines', async () => {
    const mail = await parseFixture('format-flowed.eml');
    expect(mail.text.split('\n')).toEqual([
      'This paragraph was written as one long line and wrapped by the mail client at a soft break so that it fits in a terminal.',
      'This line ends hard.',
      '',
      '> Quoted text that is flowed too.',
    ]);
  });

  it('returns attachments decoded, with name and type', async () => {
    const mail = await parseFixture('yaml-attachment.eml');
    expect(mail.text).toBe('See attached orders.');
    expect(mail.attachments).toHaveLength(1);
    const [orders] = mail.attachments;
    expect(orders?.filename).toBe('orders.yaml');
    expect(orders?.contentType).toBe('application/x-yaml');
    expect(orders?.content.toString('utf8')).toBe('nation: argenta\nturn: 3\norders:\n  - unit: A1\n    move: [2, 3]\n');
  });

  it('flags an RFC 3834 auto-reply and reports its headers verbatim', async () => {
    const mail = await parseFixture('auto-reply.eml');
    expect(mail.isAutoReply).toBe(true);
    expect(mail.isBounce).toBe(false);
    expect(mail.headers).toEqual({
      autoSubmitted: 'auto-replied',
      xAutoreply: 'yes',
      precedence: 'bulk',
      returnPath: '<>',
    });
  });

  it('flags a delivery status notification as a bounce and keeps the report part', async () => {
    const mail = await parseFixture('bounce.eml');
    expect(mail.isBounce).toBe(true);
    expect(mail.text).toContain('550 5.1.1 User unknown');
    expect(mail.attachments.map((a) => a.contentType)).toEqual(['message/delivery-status', 'text/rfc822-headers']);
    expect(mail.attachments[0]?.content.toString()).toContain('Final-Recipient: rfc822; lost@elsewhere.test');
  });

  it('leaves date and Message-ID undefined rather than inventing them', async () => {
    const mail = await parseFixture('bad-date.eml');
    expect(mail.date).toBeUndefined();
    expect(mail.messageId).toBeUndefined();
    expect(mail.from).toEqual({ name: '', address: 'nodate@game.test' });
  });

  it.each([
    ['Auto-Submitted: auto-generated', true],
    ['Auto-Submitted: no', false],
    ['Precedence: junk', true],
    ['X-Autorespond: on', true],
    // Outlook puts it on mail people write: what the sender wants suppressed in replies, not a mark of a machine.
    ['X-Auto-Response-Suppress: DR, OOF', false],
    ['X-Auto-Response-Suppress: All', false],
    ['Importance: high', false],
  ])('auto-reply heuristics: %s → %s', async (header, expected) => {
    const raw = Buffer.from(`From: a@game.test\r\nTo: gm@game.test\r\nSubject: x\r\n${header}\r\n\r\nbody\r\n`);
    expect((await parseInbound(raw)).isAutoReply).toBe(expected);
  });

  it.each([
    ['[AUTO GENERATED] Re: Turn 1 report', true],
    ['Automatic reply: Re: Turn 1 report', true],
    ['Out of Office: orders', true],
    ['Abwesenheitsnotiz: Orders', true],
    ['=?utf-8?Q?R=C3=A9ponse_automatique_:_Orders?=', true],
    ['=?utf-8?Q?Respuesta_autom=C3=A1tica:_Orders?=', true],
    ['Risposta automatica: Orders', true],
    ['Automatisch antwoord: Orders', true],
    ['=?utf-8?B?6Ieq5Yqo5Zue5aSNOiBPcmRlcnM=?=', true],
    ['Orders for turn 5', false],
    ['Re: my office is out of reach — orders', false],
    ['Automation of the foundry', false],
  ])('auto-reply by subject: %s → %s', async (subject, expected) => {
    const raw = Buffer.from(`From: a@game.test\r\nTo: gm@game.test\r\nSubject: ${subject}\r\n\r\nbody\r\n`);
    expect((await parseInbound(raw)).isAutoReply).toBe(expected);
  });

  it('reads the body of a multipart message that has no boundary lines', async () => {
    const raw = Buffer.from('From: a@game.test\r\nTo: gm@game.test\r\nSubject: x\r\nContent-Type: multipart/mixed; boundary="nowhere"\r\n\r\nhold Iron Guard\r\n');
    expect((await parseInbound(raw)).text).toBe('hold Iron Guard\n');
  });

  it('decodes UTF-7 with iconv-lite', async () => {
    const raw = Buffer.from('From: a@game.test\r\nTo: gm@game.test\r\nSubject: x\r\nContent-Type: text/plain; charset=utf-7\r\n\r\nnote Gr+APwA3w-e, 1+-1\r\n');
    expect((await parseInbound(raw)).text).toBe('note Grüße, 1+1\n');
  });

  it('flags mail from MAILER-DAEMON as a bounce even without a report part', async () => {
    const raw = Buffer.from('From: MAILER-DAEMON@mx.game.test\r\nTo: gm@game.test\r\nSubject: failure\r\n\r\nfailed\r\n');
    expect((await parseInbound(raw)).isBounce).toBe(true);
  });

  it('flags mailing-list mail', async () => {
    const raw = Buffer.from(
      'From: a@game.test\r\nTo: players@game.test\r\nList-Id: Fatecraft players\r\n <players.game.test>\r\nSubject: x\r\n\r\nhi\r\n',
    );
    const mail = await parseInbound(raw);
    expect(mail.isMailingList).toBe(true);
    expect(mail.isAutoReply).toBe(false);
    expect(mail.headers.listId).toBe('Fatecraft players <players.game.test>');
  });

  it('is deterministic: the same bytes parse to the same value', async () => {
    const raw = fs.readFileSync(path.join(fixtures, 'bad-date.eml'));
    expect(await parseInbound(raw)).toEqual(await parseInbound(raw));
  });
});
