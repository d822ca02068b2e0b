#!/usr/bin/env node
// The Fatecraft demo: the start and turn 1 of the Silversheen Sea campaign, played by mail on a throw-away
// copy, so the repository's campaign is never touched and the demo can be run again and again.
//
//   1. fatecraft start        every player is mailed the starting report, the order sheet and the order token,
//                             and the GM the GM's report, before any orders
//      (the players answer: their mails arrive in mail/inbox/)
//   2. fatecraft mail fetch   the players' mails are read: orders filed, receipts written
//   3. fatecraft turn         the turn is resolved from the filed orders
//   4. fatecraft mail send    every nation's report of turn 1 (and the GM's) is written to mail/outbox/
//
// The campaign's mail transport is the folder one (campaign.yaml, mail: block): mail in and out is .eml
// files. The order tokens live in a secrets file outside the campaign copy (out/demo/secrets.yaml).
//
//   npm run demo          (builds first, then runs this script)
//   npm run demo -- --fate   the same season with the Fate layer on: the overlay campaigns/silversheen/fate/
//                         (its README.md) merged into the copy — the Deck of Fate, aspects, invokes in orders
//   npm run demo -- --serve  then the web desk on the scratch campaign (fatecraft serve): a sign-in link for a
//                         player and for the GM are printed; stop it with Ctrl-C (--port N: another port than 8080)
//   node scripts/demo.mjs [--fate] [--serve] (after `npm run build`)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { simpleParser } from 'mailparser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'campaigns', 'silversheen');
// The Fate configuration: only what differs from the demo, applied to the copy (npm run demo -- --fate).
const FATE_OVERLAY = 'fate';
const args = process.argv.slice(2);
const fate = args.includes('--fate');
const serve = args.includes('--serve');
const portArg = args.find((a) => /^--port=\d+$/.test(a)) ?? (args.includes('--port') ? `--port=${args[args.indexOf('--port') + 1]}` : undefined);
const port = portArg !== undefined ? Number(portArg.slice('--port='.length)) : 8080;
const unknown = args.filter((a, i) => !['--fate', '--serve', '--port'].includes(a) && !/^--port=\d+$/.test(a) && args[i - 1] !== '--port');
if (unknown.length || !Number.isInteger(port)) {
  console.error(`demo: unknown option ${unknown.join(' ')} (the options are --fate: the Fate layer on; --serve [--port N]: the web desk after the demo).`);
  process.exit(2);
}
const demoDir = join(root, 'out', 'demo');
const target = join(demoDir, 'silversheen');
const secrets = join(demoDir, 'secrets.yaml');
const cli = join(root, 'dist', 'fatecraft', 'main.js');
const shown = (path) => relative(process.cwd(), path) || '.';

// The demo players' order tokens. In a real campaign the GM keeps them private (docs/mail.md); these are
// public because the demo's recorded mails carry them.
const DEMO_TOKENS = {
  argenta: 'silver-sails-1021',
  gondarahl: 'starkrock-deep',
  grarkul: 'bloodtusk-bones',
  vulcanstille: 'ash-and-chains',
  westvalia: 'brass-and-thunder',
};
// The demo's fixed "now": just after the players' mails, so every run writes the same files.
const DEMO_NOW = '2026-03-08T12:00:00Z';

if (!existsSync(cli)) {
  console.error(`demo: ${shown(cli)} is missing; build first (npm run build, or just npm run demo).`);
  process.exit(1);
}

/** A fresh copy every time: whatever a previous run left behind goes first. The overlay folder is not part of the campaign. */
function copyCampaign() {
  rmSync(demoDir, { recursive: true, force: true });
  const overlay = join(source, FATE_OVERLAY);
  cpSync(source, target, { recursive: true, filter: (path) => path !== overlay });
  console.log(`Copied ${shown(source)} to ${shown(target)}.`);
}

/** The Fate configuration on the copy: its campaign.yaml merged in, its mails in place of those players' mails. */
async function applyFateOverlay() {
  const { applyOverlay } = await import(pathToFileURL(join(root, 'dist', 'src', 'gm', 'overlay.js')).href);
  const written = await applyOverlay(target, join(source, FATE_OVERLAY));
  console.log(`The Fate layer on: ${shown(join(source, FATE_OVERLAY))} applied to the copy (${written.join(', ')}).`);
}

copyCampaign();
if (fate) await applyFateOverlay();
// The campaign also keeps each nation's turn-1 orders as YAML (orders/0001, used by the rules tests and
// golden reports); here every order comes by mail instead.
for (const name of readdirSync(join(target, 'orders', '0001'))) {
  if (name.endsWith('.yaml') && name !== '_gm.yaml') rmSync(join(target, 'orders', '0001', name));
}
// The players' recorded mails wait aside until the start has gone out: they answer the starting report.
const mailDir = join(target, 'mail');
const arriving = join(demoDir, 'players-mail');
mkdirSync(arriving, { recursive: true });
const playersMail = readdirSync(join(mailDir, 'inbox')).filter((n) => n.endsWith('.eml'));
for (const name of playersMail) renameSync(join(mailDir, 'inbox', name), join(arriving, name));
writeFileSync(secrets, `# Order tokens of the demo players (nation: token). Outside the campaign folder, as in a real campaign.\n${Object.entries(DEMO_TOKENS).map(([n, t]) => `${n}: ${t}`).join('\n')}\n`, { mode: 0o600 });
console.log(`Order tokens in ${shown(secrets)}.`);

const env = { ...process.env, FATECRAFT_SECRETS: secrets, FATECRAFT_NOW: DEMO_NOW };
function step(title, args) {
  console.log(`\n$ fatecraft ${args.join(' ')}    # ${title}`);
  const run = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: 'inherit', env });
  if (run.error) {
    console.error(`demo: could not run the turn processor: ${run.error.message}`);
    process.exit(1);
  }
  if (run.status !== 0) {
    console.error(`demo: the turn processor failed (${run.signal ? `signal ${run.signal}` : `exit code ${run.status}`}).`);
    process.exit(run.status ?? 1);
  }
}

step('start the campaign: mail every player the starting report, order sheet and token, and the GM the GM\'s report', ['start', shown(target)]);

for (const name of playersMail) renameSync(join(arriving, name), join(mailDir, 'inbox', name));
rmSync(arriving, { recursive: true, force: true });
const mailKinds = fate ? `four of them with aspect orders, from ${shown(join(source, FATE_OVERLAY, 'mail', 'inbox'))}/` : 'plain text, quoted-printable, HTML only, a .yaml attachment, base64';
console.log(`\nThe players answer: ${playersMail.length} mails arrive in ${shown(join(mailDir, 'inbox'))}/ (${mailKinds}).`);

step('read the mail: file the orders, answer each player', ['mail', 'fetch', shown(target), '--quiet']);
step('resolve turn 1 from the filed orders', ['turn', shown(target)]);
step("mail every nation its report, and the GM the GM's", ['mail', 'send', shown(target), '--quiet']);

// What happened, file by file.
const turnsDir = join(target, 'turns');
const latest = readdirSync(turnsDir).filter((name) => /^\d{4,}$/.test(name)).sort((a, b) => Number(a) - Number(b)).at(-1);
if (latest === undefined) {
  console.error(`demo: no resolved turn found in ${shown(turnsDir)}.`);
  process.exit(1);
}
const turnDir = join(turnsDir, latest);
const outbox = join(mailDir, 'outbox');
// In the order they went out: the start's mail first (the welcomes, the GM's report of turn 0), then the answers.
const KINDS = ['welcome', 'gm-start', 'receipt', 'reply', 'report', 'gm-report', 'alert'];
const sent = [];
for (const file of readdirSync(outbox).filter((n) => n.endsWith('.eml'))) {
  const mail = await simpleParser(readFileSync(join(outbox, file)));
  const kind = file.startsWith('fatecraft.start.') ? 'welcome' : file.startsWith('fatecraft.gm-report.t0000.') ? 'gm-start' : String(mail.headers.get('x-fatecraft-kind') ?? '');
  sent.push({ to: mail.to?.text ?? '', subject: mail.subject ?? '', kind });
}
sent.sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
console.log(`\nThe start and turn ${Number(latest)} of the Silversheen Sea${fate ? ' with the Fate layer on (the Deck of Fate, aspects and invokes)' : ''}, played by mail:`);
console.log(`  ${shown(join(turnsDir, '0000', 'reports'))}/   the starting reports and order sheets every player was mailed`);
console.log(`  ${shown(join(turnDir, 'orders'))}/   each nation's orders as filed from its mail (<nation>.yaml), kept with the turn that used them`);
console.log(`  ${shown(join(target, 'orders', '0001'))}/   each nation's mail itself (<nation>.eml)`);
console.log(`  ${shown(join(mailDir, 'processed'))}/   the players' mails, moved out of the inbox once handled`);
console.log(`  ${shown(join(mailDir, 'ledger'))}/   what was decided for each mail (the mail ledger)`);
for (const [name, what] of [
  ['state.yaml', 'the game state after the turn'],
  ['events.yaml', 'every event of the turn, in resolution order, with all dice rolls'],
  ['reports', "each nation's report, and the GM's"],
]) {
  const path = join(turnDir, name);
  if (existsSync(path)) console.log(`  ${shown(path)}${name === 'reports' ? '/' : ''}   ${what}`);
}
console.log(`  ${shown(outbox)}/   ${sent.length} messages the campaign sent:`);
for (const m of sent) console.log(`      ${(m.kind === 'gm-start' ? 'gm-report' : m.kind).padEnd(9)} → ${m.to.padEnd(28)} ${m.subject}`);
console.log(`\nOpen any .eml file in a mail program to read it as a player would. \`fatecraft mail status ${shown(target)}\` shows the mail ledger.`);
if (fate) console.log(`With the Fate layer on, every battle's dice in events.yaml are cards from the nations' Decks of Fate (die: card), each invoke an aspect_invoked event; the reports and receipts say them in words (${shown(join(source, FATE_OVERLAY, 'README.md'))}).`);
console.log(`The repository's campaign (${shown(source)}) is unchanged; run the demo again to start over.`);
if (!serve) {
  console.log(`To read the reports and send turn ${Number(latest) + 1}'s orders in a browser, as players would: npm run demo -- --serve`);
} else {
  await serveDemo();
}

/**
 * The web desk on the scratch campaign (fatecraft serve), on the demo's clock so turn 2 is open: one-time
 * sign-in links for a player and for the GM, and the GM's desk secret in the demo's secrets file.
 */
async function serveDemo() {
  const gmSecret = 'demo-gm-desk-secret';
  const text = readFileSync(secrets, 'utf8');
  if (!text.includes('FATECRAFT_GM_SECRET:')) writeFileSync(secrets, `${text}# The GM's desk secret (fatecraft serve).\nFATECRAFT_GM_SECRET: ${gmSecret}\n`, { mode: 0o600 });
  const { startDesk } = await import(pathToFileURL(join(root, 'dist', 'src', 'web', 'serve.js')).href);
  const { clockFromEnv } = await import(pathToFileURL(join(root, 'dist', 'src', 'schedule', 'clock.js')).href);
  const { turnRenderers } = await import(pathToFileURL(join(root, 'dist', 'src', 'cli', 'renderers.js')).href);
  const options = { folder: target, host: '127.0.0.1', env, clock: clockFromEnv(env), renderers: turnRenderers(), log: (line) => console.error(`[desk] ${line}`) };
  let running;
  try {
    running = await startDesk({ ...options, port });
  } catch (error) {
    if (error?.code !== 'EADDRINUSE') throw error;
    console.log(`Port ${port} is taken; the desk takes a free one.`);
    running = await startDesk({ ...options, port: 0 });
  }
  const slug = running.slugs[0];
  console.log(`\nThe web desk (fatecraft serve) on the demo's campaign, at the demo's time (${DEMO_NOW}), so turn ${Number(latest) + 1} takes orders:`);
  console.log(`  ${running.url}/c/${slug}/`);
  console.log(`  sign in as the Duchy of Argenta: ${await running.desk.signInLink(slug, { role: 'nation', nation: 'argenta' })}`);
  console.log(`  sign in as the GM:               ${await running.desk.signInLink(slug, { role: 'gm' })}`);
  console.log(`  (each link works once, for 15 minutes; or sign in with an order token, or the GM's desk secret "${gmSecret}", from ${shown(secrets)})`);
  console.log('Mail the desk sends (receipts, sign-in links) lands in the outbox as the rest. Stop the desk with Ctrl-C.');
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.close();
}
