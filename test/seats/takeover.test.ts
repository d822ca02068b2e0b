import type { NationId } from '../../src/core/ids.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { offerSeat } from '../../src/gm/seats.js';
import { openCampaign, readState, turnDirName } from '../../src/campaign/store.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { campaignStatus, formatStatus } from '../../src/schedule/status.js';
import { existsSync } from 'node:fs';
import { mailServersAvailable, type MailServers } from '../support/mail-servers.js';
import { ADDRESSES, CAMPAIGN_ADDRESS, IMAP_PASSWORD_ENV, PASSWORD, TOKENS, demoCopy, imapCampaign, withMailServers } from '../mailroom/support.js';
import { writeOrders } from '../schedule/support.js';
import { byDate, folderPost, OTHERS, RESOLVE, schedule, ticker, useSecretsFile, type Post } from './support.js';

const VOLUNTEER = 'mara@volunteer.test';

/**
 * A seat taken over by mail in the middle of a campaign (issue 35), through the folder transport and
 * through real servers (Dovecot over IMAP, an SMTP relay): Grarkul's player falls silent after turn 1;
 * when turn 4 opens, the caretaker's orders are filed and the player is warned; a stranger volunteers;
 * the GM offers her the seat; she accepts by answering the invitation; she gets the nation's welcome
 * (report, order sheet with her new token, map, and its last reports as an archive); the old token is
 * refused as replaced; her orders are the ones turn 4 resolves with. Every mail goes out once.
 */
const setSecrets = useSecretsFile();
const secretsFile = setSecrets;
const SCHEDULE = schedule('  policy: caretaker\n');

async function playTakeover(dir: string, post: Post): Promise<void> {
  const { clock, hooks, at: tickAt } = ticker(dir, '2025-03-20T12:00:00Z');
  await tickAt('2025-03-20T12:00:00Z');
  for (let turn = 1; turn <= 3; turn++) {
    if (turn > 1) writeOrders(dir, turn, OTHERS);
    expect((await tickAt(RESOLVE[turn]!)).resolved).toEqual([turn]);
  }

  // Turn 4 opens: the caretaker's orders are on file, and Grarkul's player is warned.
  expect(existsSync(join(dir, 'orders', '0004', 'grarkul.caretaker.yaml'))).toBe(true);
  const warned = (await post.received(ADDRESSES.grarkul!)).filter((m) => m.subject?.includes('seat warning'));
  expect(warned).toHaveLength(1);
  expect(warned[0]!.text).toContain('If no orders from you reach us by the deadline of turn 4');

  // A stranger volunteers; she is told she is on the list, and the GM sees it.
  await post.send({ from: `Mara Silva <${VOLUNTEER}>`, subject: 'volunteer Mara Silva', text: 'I would gladly take over a nation.\n' });
  await tickAt('2025-04-08T10:00:00Z');
  const [onList] = await post.received(VOLUNTEER);
  expect(onList!.text).toContain('Thank you, Mara Silva: you are now on the standby list of The Silversheen Sea.');
  expect(formatStatus(await campaignStatus(dir, { clock, hooks }))).toContain(`Mara Silva <${VOLUNTEER}>`);

  // The GM offers her the seat; she answers the invitation with "accept", quoting it.
  clock.set('2025-04-08T11:00:00Z');
  const offered = await offerSeat(dir, 'grarkul', VOLUNTEER, { clock });
  expect(offered.offer).toMatchObject({ id: 1, nation: 'grarkul', name: 'Mara Silva', status: 'open' });
  const invitation = (await post.received(VOLUNTEER)).find((m) => m.subject?.includes('Invitation'))!;
  expect(invitation.text).toContain('You are invited to take over The Grarkul Tribes'.replace('You', 'Mara Silva, you'));
  expect(invitation.text).toMatch(/accept [a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}/);
  const quoted = (invitation.text ?? '').split('\n').map((l) => `> ${l}`).join('\n');
  await post.send({ from: VOLUNTEER, subject: `Re: ${invitation.subject}`, text: `accept\n\nMara\n\nOn Tue, 8 Apr 2025 The Silversheen Sea wrote:\n${quoted}\n`, inReplyTo: invitation.messageId! });
  await tickAt('2025-04-09T10:00:00Z');

  // The welcome: the report of turn 3, the order sheet with her new token, the map, and turns 1–2 as an archive.
  const welcome = (await post.received(VOLUNTEER)).find((m) => m.subject?.includes('Welcome'))!;
  expect(welcome.text).toContain('from turn 4 on you lead The Grarkul Tribes (Warchief Urzag Bloodtusk)');
  expect(welcome.text).toContain('The Silversheen Sea — report for The Grarkul Tribes');
  const token = /Your order token: (\S+)/.exec(welcome.text ?? '')![1]!;
  expect(token).not.toBe(TOKENS.grarkul);
  const names = welcome.attachments.map((a) => a.filename).sort();
  // The demo's reports carry the map in the HTML (reports.formats has no separate svg).
  expect(names).toEqual(['grarkul-orders.yaml', 'grarkul-report.yaml', 'grarkul-reports.tar.gz']);
  expect(String(welcome.html)).toContain('<svg');
  expect(welcome.attachments.find((a) => a.filename === 'grarkul-orders.yaml')!.content.toString('utf8')).toContain(`token: "${token}"`);
  const tar = gunzipSync(welcome.attachments.find((a) => a.filename === 'grarkul-reports.tar.gz')!.content).toString('latin1');
  expect(tar).toContain('0001/grarkul.txt');
  expect(tar).toContain('0002/grarkul.txt');
  const { file } = await openCampaign(dir);
  expect(file.nations['grarkul' as NationId]!.email).toEqual([VOLUNTEER]);

  // The old player's token is refused as replaced; her orders for turn 4 are filed.
  await post.send({ from: ADDRESSES.grarkul!, subject: 'Orders for turn 4', text: `Token: ${TOKENS.grarkul}\nhold gk-grukka\n` });
  await post.send({ from: VOLUNTEER, subject: 'Orders for turn 4', text: `Token: ${token}\nhold gk-grukka\nhold gk-ironhide\n` });
  writeOrders(dir, 4, OTHERS);
  await tickAt('2025-04-10T10:00:00Z');
  const refused = (await post.received(ADDRESSES.grarkul!)).at(-1)!;
  expect(refused.text).toContain('whose seat in The Silversheen Sea has passed to another player');
  const receipt = (await post.received(VOLUNTEER)).at(-1)!;
  expect(receipt.subject).toMatch(/Orders for turn 4/);
  expect(receipt.text).toContain('are on file');

  // Turn 4 resolves with her orders, not the caretaker's; every nation hears of the new player.
  expect((await tickAt(RESOLVE[4]!)).resolved).toEqual([4]);
  const { campaign } = await openCampaign(dir);
  const state = await readState(dir, 4, campaign);
  expect(state.nations['grarkul' as NationId]!.missedTurns).toBe(0);
  expect(state.nations['grarkul' as NationId]!.seat).toBeUndefined();
  const report4 = readFileSync(join(dir, 'turns', turnDirName(4), 'reports', 'grarkul.txt'), 'utf8');
  expect(report4).toContain('A new hand at the helm');
  expect(report4).not.toContain('ORDERS GIVEN IN YOUR NAME');
  expect(readFileSync(join(dir, 'turns', turnDirName(4), 'reports', 'argenta.txt'), 'utf8')).toContain('The Grarkul Tribes has a new ruler\'s hand at the helm.');
  const reportMail = (await post.received(VOLUNTEER)).find((m) => m.subject?.includes('Turn 4 report'));
  expect(reportMail).toBeDefined();
  expect((await post.received(ADDRESSES.grarkul!)).some((m) => m.subject?.includes('Turn 4 report'))).toBe(false);

  // The record: who held the seat for which turns.
  const rt = (await readRuntime(dir))!;
  expect(rt.seats?.grarkul).toEqual([
    expect.objectContaining({ player: [ADDRESSES.grarkul], fromTurn: 1, toTurn: 3, onTime: 1, missed: 2 }),
    expect.objectContaining({ player: [VOLUNTEER], name: 'Mara Silva', fromTurn: 4, onTime: 1, missed: 0 }),
  ]);
  expect(rt.standby ?? []).toEqual([]);
  expect(rt.offers).toEqual([expect.objectContaining({ id: 1, status: 'accepted' })]);
  expect(rt.operation).toBeUndefined();

  // Another tick, and another: nothing more goes out; every mail went once.
  await tickAt('2025-04-14T10:00:00Z');
  await tickAt('2025-04-14T16:00:00Z');
  for (const address of [VOLUNTEER, ADDRESSES.grarkul!, ADDRESSES.argenta!]) {
    const box = await post.received(address);
    const ids = box.map((m) => m.messageId);
    expect(new Set(ids).size, address).toBe(ids.length);
  }
  const mara = (await post.received(VOLUNTEER)).map((m) => m.headers.get('x-fatecraft-kind'));
  // On the list, the invitation, the welcome, the receipt, the report of turn 4.
  expect(mara).toEqual(['reply', 'notice', 'report', 'receipt', 'report']);
}

describe('a seat taken over by mail, through the folder transport', { timeout: 400_000 }, () => {
  it('volunteer → offer → accept → welcome with the archive → the new player\'s orders resolve the next turn; every mail once', async () => {
    const { dir } = demoCopy('takeover-folder');
    writeFileSync(join(dir, 'campaign.yaml'), readFileSync(join(dir, 'campaign.yaml'), 'utf8') + SCHEDULE);
    secretsFile('folder');
    const post = folderPost(dir);
    await playTakeover(dir, post);
  });
});

const servers = mailServersAvailable() || process.env.CI !== undefined;

describe.skipIf(!servers)('a seat taken over by mail, through real servers', { timeout: 400_000 }, () => {
  let mail: MailServers;
  withMailServers((started) => (mail = started));

  it('volunteer → offer → accept → welcome with the archive → the new player\'s orders resolve the next turn; every mail once', async () => {
    const { dir } = await imapCampaign(mail, 'takeover-imap', { yamlOrders: true });
    writeFileSync(join(dir, 'campaign.yaml'), readFileSync(join(dir, 'campaign.yaml'), 'utf8') + SCHEDULE);
    await mail.addUser(VOLUNTEER, PASSWORD);
    secretsFile('imap', { [IMAP_PASSWORD_ENV]: PASSWORD });
    const post: Post = {
      async send(m) {
        const transport = createTransport({ host: mail.smtp.host, port: mail.smtp.port, secure: false, logger: false });
        await transport.sendMail({ from: m.from, to: CAMPAIGN_ADDRESS, subject: m.subject, text: m.text, ...(m.inReplyTo ? { inReplyTo: m.inReplyTo, references: [m.inReplyTo] } : {}) });
        transport.close();
      },
      async received(address) {
        const box = await mail.readMailbox(address, PASSWORD);
        return box.map((s) => s.parsed).sort(byDate);
      },
    };
    await playTakeover(dir, post);
  });
});
