import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { checkOrdersFile, registerCheck } from '../../src/cli/commands/check.js';
import { FIXTURES, WORLD_DIR } from './world.js';

/** `fatecraft check <campaign> <file>`: the receipt on stdout, exit code 0 only when every order is valid. */
const MAIL = join(FIXTURES, 'mail');
const SAME = join(FIXTURES, 'equivalence');
const temps: string[] = [];

afterAll(async () => {
  for (const t of temps) await rm(t, { recursive: true, force: true });
});

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

async function run(...args: string[]): Promise<{ out: string; code: number | string | undefined }> {
  const program = new Command().exitOverride();
  registerCheck(program);
  const printed: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void printed.push(a.join(' ')));
  await program.parseAsync(['node', 'fatecraft', 'check', ...args]);
  const code = process.exitCode;
  process.exitCode = undefined;
  return { out: printed.join('\n'), code };
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fatecraft-check-'));
  temps.push(dir);
  return dir;
}

describe('fatecraft check', () => {
  it('prints the receipt of a valid YAML file and exits 0', async () => {
    const { out, code } = await run(WORLD_DIR, join(SAME, 'argenta.yaml'));
    expect(code).toBe(0);
    expect(out).toContain('Nation: Duchy of Argenta (argenta)');
    expect(out).toContain("→ Galley 'Silver Swan' (argenta-11) moves 2,4 → 1,4 → 1,5 → 1,6, carrying argenta-3 ashore at 2,6, arriving turn 4");
    expect(out).toContain('All 13 orders are valid.');
  });

  it('reads a text file the same way', async () => {
    const { out, code } = await run(WORLD_DIR, join(SAME, 'argenta.txt'), '--token', 's3cret');
    expect(code).toBe(0);
    expect(out).toContain('Token: accepted');
    expect(out).toContain('All 13 orders are valid.');
  });

  it('exits 1 and lists the problem with its line and a "did you mean"', async () => {
    const { out, code } = await run(WORLD_DIR, join(MAIL, 'broken.txt'));
    expect(code).toBe(1);
    expect(out).toContain('  line 3: move Iron Gaurd to 6,5\n      ✗ you have no unit "Iron Gaurd"\n      did you mean "Iron Guard"?');
    expect(out).toContain('  line 4: rest argenta-2\n      → Marines (argenta-2) rests to heal');
  });

  it('exits 1 on a wrong token and reads nothing back', async () => {
    const { out, code } = await run(WORLD_DIR, join(SAME, 'argenta.yaml'), '--token', 'not-it');
    expect(code).toBe(1);
    expect(out).toContain('NOT ACCEPTED: the order token is wrong; none of these orders were read.');
    expect(out).not.toContain('Silver Swan');
  });

  it('reads a mail: charset and quoted-printable decoded, nation from the sender, reply and signature left out', async () => {
    const { out, code } = await run(WORLD_DIR, join(MAIL, 'plain.eml'), '--token', 's3cret');
    expect(out).toContain('(mail body)');
    expect(out).toContain('Nation: Duchy of Argenta (argenta)');
    expect(out).toContain('→ Note to the GM: "Café for the envoys, please."');
    expect(out).toContain('Problems (0)');
    expect(code).toBe(0);
  });

  it('reads a .yaml attachment, taking the token from the body', async () => {
    const { out, code } = await run(WORLD_DIR, join(MAIL, 'attachment.eml'), '--token', 's3cret');
    expect(out).toContain('(attachment orders.yaml)');
    expect(out).toContain('Token: accepted');
    expect(out).toContain('→ Marines (argenta-5) holds at 2,8');
    expect(out).toContain('✗ your nation has no unit type "dragons"');
    expect(code).toBe(1);
  });

  it('prints JSON with --json', async () => {
    const { out, code } = await run(WORLD_DIR, join(SAME, 'gondarahl.txt'), '--json');
    const receipt = JSON.parse(out) as { nation: string; ok: boolean; accepted: unknown[] };
    expect(receipt).toMatchObject({ nation: 'gondarahl', ok: true });
    expect(receipt.accepted).toHaveLength(4);
    expect(code).toBe(0);
  });

  it('says when the orders would replace a submission already on file', async () => {
    const dir = await tempDir();
    await cp(WORLD_DIR, dir, { recursive: true });
    await mkdir(join(dir, 'orders', '0004'), { recursive: true });
    await writeFile(join(dir, 'orders', '0004', 'argenta.yaml'), 'nation: argenta\nturn: 4\norders: []\n');
    const { out } = await run(dir, join(SAME, 'argenta.txt'));
    expect(out).toContain('These orders replace, whole, the orders you sent earlier for turn 4.');
    const self = await checkOrdersFile(dir, join(dir, 'orders', '0004', 'argenta.yaml'));
    expect(self.receipt.replacesEarlier).toBe(false);
  });

  it('checks against turn 0 when the campaign has no resolved turn yet', async () => {
    const dir = await tempDir();
    await cp(join(WORLD_DIR, 'campaign.yaml'), join(dir, 'campaign.yaml'));
    const { receipt } = await checkOrdersFile(dir, join(MAIL, 'broken.txt'));
    expect(receipt.pendingTurn).toBe(1);
    expect(receipt.problems.map((p) => p.reason)).toContain('turn 4 is not open yet; orders are taken for turn 1 only');
  });

  it('refuses a file over the limit without loading it', async () => {
    const dir = await tempDir();
    const big = join(dir, 'argenta.txt');
    await writeFile(big, `rest argenta-2\n${'#'.repeat(400 * 1024)}\n`);
    const { out, code } = await run(WORLD_DIR, big);
    expect(out).toMatch(/the file is \d+ bytes; the limit is 262144/);
    expect(code).toBe(1);
  });

  it('takes the nation from --nation, the sheet, or the file name, and says when it cannot tell', async () => {
    const dir = await tempDir();
    const anon = join(dir, 'orders.txt');
    await writeFile(anon, 'rest argenta-2\n');
    await expect(checkOrdersFile(WORLD_DIR, anon)).rejects.toThrow(/cannot tell which nation these orders are for/);
    expect((await checkOrdersFile(WORLD_DIR, anon, { nation: 'Duchy of Argenta' })).receipt.ok).toBe(true);
    await expect(checkOrdersFile(WORLD_DIR, anon, { nation: 'atlantis' })).rejects.toThrow(CampaignError);
    const named = join(dir, 'argenta.txt');
    await writeFile(named, 'rest argenta-2\n');
    expect((await checkOrdersFile(WORLD_DIR, named)).receipt.nation).toBe('argenta');
  });

  it('reports a missing file as a campaign error, not a crash', async () => {
    await expect(checkOrdersFile(WORLD_DIR, join(MAIL, 'nope.txt'))).rejects.toThrow(/nope\.txt: the file does not exist/);
  });
});
