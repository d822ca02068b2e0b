import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '../../src/campaign/secrets.js';
import { CLI, cleanupScratch, ensureBuilt, scratchDir } from '../schedule/support.js';

/**
 * What a GM may put in git (issue 33): a campaign made with `fatecraft new`, started, played one turn by
 * mail — orders in the body, quoted-printable, and in an attached sheet in base64 — and then committed
 * whole with the .gitignore `new` wrote. No file git would take holds a player's order token; the filed
 * mails are there, each with the token's fingerprint where the token was, for the audit.
 */
beforeAll(ensureBuilt, 120_000);
afterAll(cleanupScratch);

const MONDAY = '2026-03-02T12:00:00Z';
const BEFORE_DEADLINE = '2026-03-08T16:00:00Z';
const AFTER_GRACE = '2026-03-08T18:20:00Z';
const PLAYERS = { northmark: 'edda@north.test', southmoor: 'aldo@south.test' } as const;
const GUARD = { northmark: 'nm-guard', southmoor: 'sm-guard' } as const;

describe('a campaign folder in git', () => {
  it('carries no order token, and keeps the filed mails with the token replaced by its fingerprint', () => {
    const root = scratchDir('publish');
    const dir = join(root, 'iron-coast');
    const secrets = join(root, 'private', 'iron-coast.secrets.yaml');
    const fc = (args: string[], now: string) => {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, FATECRAFT_NOW: now, FATECRAFT_SECRETS: secrets, FATECRAFT_LOCK_WAIT: '0' } });
      expect(r.status, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      return r;
    };
    fc(['new', 'iron-coast'], MONDAY);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^\/mail\/$/m);
    const file = join(dir, 'campaign.yaml');
    let text = readFileSync(file, 'utf8');
    for (const [nation, address] of Object.entries(PLAYERS)) text = text.replace(`email: [${nation}-player@example.org]`, `email: [${address}]`);
    writeFileSync(file, text);
    fc(['start', 'iron-coast'], MONDAY);
    const tokens = load(readFileSync(secrets, 'utf8')) as Record<string, string>;

    // Northmark writes its orders in the body, quoted-printable (a soft line break in the middle of the token);
    // Southmoor attaches its order sheet, base64, and quotes its token in the body too.
    const nm = tokens.northmark!;
    const qp = `Token: ${nm.slice(0, 7)}=\r\n${nm.slice(7)}\r\nhold ${GUARD.northmark}\r\nnote Gr=C3=BC=C3=9Fe!\r\n`;
    writeFileSync(join(dir, 'mail', 'inbox', 'northmark.eml'), `From: ${PLAYERS.northmark}\r\nTo: turns@example.org\r\nSubject: orders\r\nDate: Tue, 03 Mar 2026 10:00:00 +0000\r\nMessage-ID: <o-nm@test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${qp}`);
    const sm = tokens.southmoor!;
    const sheet = Buffer.from(`nation: southmoor\nturn: 1\ntoken: "${sm}"\norders:\n  - hold: ${GUARD.southmoor}\n`).toString('base64');
    writeFileSync(
      join(dir, 'mail', 'inbox', 'southmoor.eml'),
      [
        `From: ${PLAYERS.southmoor}`,
        'To: turns@example.org',
        'Subject: my sheet',
        'Date: Tue, 03 Mar 2026 10:05:00 +0000',
        'Message-ID: <o-sm@test>',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/plain; charset=utf-8',
        '',
        `Here is my sheet (my token is ${sm}).`,
        '--b1',
        'Content-Type: application/yaml; name="southmoor-orders.yaml"',
        'Content-Disposition: attachment; filename="southmoor-orders.yaml"',
        'Content-Transfer-Encoding: base64',
        '',
        sheet,
        '--b1--',
        '',
      ].join('\r\n'),
    );
    expect(fc(['tick', 'iron-coast'], BEFORE_DEADLINE).stdout).toContain('read 2 message(s)');
    expect(fc(['tick', 'iron-coast'], AFTER_GRACE).stdout).toContain('resolved turn 1');

    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', '-A'], { cwd: dir });
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8' }).split('\0').filter(Boolean);
    expect(tracked).toContain('campaign.yaml');
    expect(tracked).toContain('runtime.yaml');
    expect(tracked.some((f) => f.startsWith('mail/'))).toBe(false);
    for (const f of tracked) {
      const bytes = readFileSync(join(dir, f)).toString('latin1');
      for (const [nation, token] of Object.entries(tokens)) expect(bytes.includes(token), `${f} holds ${nation}'s token`).toBe(false);
    }
    // The filed mails are kept, each with the token's fingerprint for the audit.
    for (const nation of Object.keys(PLAYERS)) {
      const filed = tracked.find((f) => f.endsWith(`/${nation}.eml`) && (f.startsWith('orders/0001/') || f.startsWith('turns/0001/orders/')));
      expect(filed, tracked.join('\n')).toBeDefined();
      expect(readFileSync(join(dir, filed!), 'latin1')).toContain(`sha256:${tokenDigest(tokens[nation]!).slice(0, 12)}`);
    }
    // The turn read both nations' orders.
    expect(readFileSync(join(dir, 'turns', '0001', 'events.yaml'), 'utf8')).not.toMatch(/type: nmr/);
  }, 180_000);
});
