import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { sendReports } from '../../src/mailroom/reports.js';
import { mailServersAvailable, type MailServers, type StoredMessage } from '../support/mail-servers.js';
import { ADDRESSES, CAMPAIGN_ADDRESS, DEMO, GM_ADDRESS, PASSWORD, TestClock, imapCampaign, imapSecrets, withMailServers } from './support.js';

/**
 * A season of the demo campaign played entirely by mail through a real Dovecot and SMTP relay: each player
 * sends orders the way a real mail program writes them (plain text, quoted-printable, HTML only, a .yaml
 * attachment, base64; later turns as replies to the report, quoting it), the processor fetches them over
 * IMAP, answers with receipts, resolves the turn, and mails every nation its report; the players read it all
 * back over IMAP.
 */
const run = mailServersAvailable() || process.env.CI !== undefined;
const TURNS = 3;

describe.skipIf(!run)('a season played by mail through real servers', () => {
  let servers: MailServers;
  withMailServers((started) => (servers = started));

  const player = (nation: string) => ADDRESSES[nation]!;
  const smtp = () => createTransport({ host: servers.smtp.host, port: servers.smtp.port, secure: false, logger: false });
  const mailbox = (address: string) => servers.readMailbox(address, PASSWORD);
  const since = (box: StoredMessage[], n: number) => box.slice(n);

  /** How each player answers the report of the last turn, in their mail program's own way. */
  async function answer(nation: string, report: StoredMessage, turn: number): Promise<void> {
    const parsed = report.parsed;
    const token = /Your order token: (\S+)/.exec(parsed.text ?? '')?.[1];
    const sheet = parsed.attachments.find((a) => a.filename === `${nation}-orders.yaml`)!.content.toString('utf8');
    // The demo lists the machine-readable report among its formats, so the mail carries it too.
    const data = parsed.attachments.find((a) => a.filename === `${nation}-report.yaml`)!.content.toString('utf8');
    expect(data).toMatch(/^# .*\nformat: fatecraft-nation-report\/2\n/);
    // The sheet's unit headings ("# Infantry (argenta-1) at 4,5 (plains) — …") name the units.
    const units = [...sheet.matchAll(/^ {2}# .+? \(([a-z0-9-]+)\) at \d+,\d+ /gm)].map((m) => m[1]!).slice(0, 3);
    const holds = units.map((u) => `hold ${u}`).join('\n');
    const thread = { inReplyTo: parsed.messageId, references: [parsed.messageId!] };
    const common = { from: player(nation), to: CAMPAIGN_ADDRESS, subject: `Re: ${parsed.subject}`, ...thread };
    const quoted = (parsed.text ?? '').split('\n').map((l) => `> ${l}`).join('\n');
    const transport = smtp();
    switch (nation) {
      case 'argenta': // top-posted plain text above the quoted report
        await transport.sendMail({ ...common, text: `Token: ${token}\n${holds}\n\nRegards,\nCristoval\n\nOn Sun, 8 Mar 2026, The Silversheen Sea <${CAMPAIGN_ADDRESS}> wrote:\n${quoted}\n` });
        break;
      case 'gondarahl': // non-ASCII: nodemailer sends it quoted-printable
        await transport.sendMail({ ...common, text: `Greetings from Starkhold,\nToken: ${token}\n${holds}\nnote Für König Kharnik — Silber für Turn ${turn}.\n-- \nKharnik\n`, textEncoding: 'quoted-printable' });
        break;
      case 'grarkul': {
        // HTML only, the report quoted in a Gmail blockquote
        const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(String(parsed.html))?.[1] ?? '';
        await transport.sendMail({ ...common, html: `<div dir="ltr"><div>Token: ${token}</div>${units.map((u) => `<div>hold ${u}</div>`).join('')}</div><br><div class="gmail_quote">On Sun, 8 Mar 2026 The Silversheen Sea wrote:<blockquote class="gmail_quote">${body}</blockquote></div>` });
        break;
      }
      case 'vulcanstille': {
        // The order sheet from the report, filled in and attached back (its token is already in it)
        const filled = sheet.replace('\norders:\n', `\norders:\n${units.map((u) => `  - {hold: ${u}}\n`).join('')}`);
        // Sent back with the report's data file still attached, first: it is not taken for the orders.
        const attachments = [
          { filename: `${nation}-report.yaml`, content: data, contentType: 'application/yaml' },
          { filename: `${nation}-orders.yaml`, content: filled, contentType: 'application/x-yaml' },
        ];
        await transport.sendMail({ ...common, text: 'Orders attached.\n\nSeverity Ashcombe\n', attachments });
        break;
      }
      case 'westvalia': // base64 from a phone, with its signature
        await transport.sendMail({ ...common, text: `Token: ${token}\n${holds}\n\nSent from my iPhone\n`, textEncoding: 'base64' });
        break;
    }
    transport.close();
  }

  it(`plays ${TURNS} turns: every order arrives, is filed and receipted once; every nation gets each report once`, async () => {
    const { dir } = await imapCampaign(servers, 'season');
    const clock = new TestClock('2026-03-08T12:00:00Z');
    const opts = { clock, secrets: imapSecrets() };
    const nations = Object.keys(ADDRESSES).sort();
    const seen: Record<string, number> = Object.fromEntries(nations.map((n) => [n, 0]));

    for (let turn = 1; turn <= TURNS; turn++) {
      // The players write.
      if (turn === 1) {
        // Turn 1: the demo's recorded mails, sent through the relay as their programs sent them.
        const transport = smtp();
        const inbox = join(DEMO, 'mail', 'inbox');
        for (const name of readdirSync(inbox).sort()) {
          const nation = nations.find((n) => name.includes(n))!;
          await transport.sendMail({ envelope: { from: player(nation), to: [CAMPAIGN_ADDRESS] }, raw: readFileSync(join(inbox, name)) });
        }
        transport.close();
      } else {
        for (const nation of nations) {
          const box = await mailbox(player(nation));
          const report = box.find((m) => m.parsed.subject === `[The Silversheen Sea] Turn ${turn - 1} report for ${m.parsed.subject?.split(' for ')[1]}`)!;
          expect(report, `${nation} has the report of turn ${turn - 1}`).toBeDefined();
          await answer(nation, report, turn);
        }
      }

      // The processor reads, files and answers.
      const fetched = await fetchMail(dir, opts);
      expect(fetched.error).toBeUndefined();
      expect(fetched.filed.map((f) => `${f.nation}:${f.turn}`).sort()).toEqual(nations.map((n) => `${n}:${turn}`));
      expect(fetched.sent.sent).toHaveLength(5);
      for (const nation of nations) {
        const fresh = since(await mailbox(player(nation)), seen[nation]!);
        const receipts = fresh.filter((m) => m.parsed.headers.get('x-fatecraft-kind') === 'receipt');
        expect(receipts, `${nation}: one receipt for turn ${turn}`).toHaveLength(1);
        const receipt = receipts[0]!.parsed;
        expect(receipt.text).toContain(`turn ${turn}, are on file`);
        expect(receipt.text).toContain('Token: accepted');
        expect(receipt.headers.get('auto-submitted')).toBe('auto-replied');
        expect(receipt.inReplyTo).toBeDefined();
        if (turn > 1) expect(receipt.text, `${nation} turn ${turn}`).toContain('Problems (0)');
      }
      expect(readdirSync(join(dir, 'orders', String(turn).padStart(4, '0'))).filter((n) => n.endsWith('.yaml') && n !== '_gm.yaml').sort()).toEqual(nations.map((n) => `${n}.yaml`));

      // The turn resolves and the reports go out.
      const resolved = await runTurn(dir, { renderers: turnRenderers(), expectTurn: turn });
      if (turn === 1) expect(resolved.events.filter((e) => e.type === 'battle').length).toBeGreaterThan(0);
      const reports = await sendReports(dir, turn, opts);
      expect(reports.queued).toEqual(nations);
      expect(reports.sent.sent).toHaveLength(6);
      for (const nation of nations) {
        const box = await mailbox(player(nation));
        const fresh = since(box, seen[nation]!);
        const mine = fresh.filter((m) => m.parsed.headers.get('x-fatecraft-kind') === 'report');
        expect(mine, `${nation}: one report of turn ${turn}`).toHaveLength(1);
        const report = mine[0]!.parsed;
        expect(report.subject).toContain(`Turn ${turn} report`);
        expect(report.text).toContain(`Your order token: `);
        expect(String(report.html)).toContain('<svg');
        expect(report.attachments.map((a) => a.filename).sort()).toEqual([`${nation}-orders.yaml`, `${nation}-report.yaml`]);
        expect(mine[0]!.raw.toString('latin1')).toMatch(/Content-Type: multipart\/alternative/);
        seen[nation] = box.length;
      }
      const gm = await mailbox(GM_ADDRESS);
      expect(gm.filter((m) => m.parsed.subject === `[The Silversheen Sea] GM report, turn ${turn}`)).toHaveLength(1);
      clock.advance(7 * 24 * 3600_000);
    }

    // Nothing twice, nothing lost: every player holds exactly a receipt and a report per turn, all distinct.
    for (const nation of nations) {
      const box = await mailbox(player(nation));
      expect(box).toHaveLength(2 * TURNS);
      expect(new Set(box.map((m) => m.parsed.messageId)).size).toBe(2 * TURNS);
    }
    expect(await servers.readMailbox(CAMPAIGN_ADDRESS, PASSWORD)).toEqual([]);
    expect(await servers.readMailbox(CAMPAIGN_ADDRESS, PASSWORD, 'Processed')).toHaveLength(5 * TURNS);
  });
});
