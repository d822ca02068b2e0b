import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/commands/index.js';
import { EXAMPLES } from '../../src/cli/examples.js';
import { runBuilt } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';
import { DEMO, ROOT } from '../schedule/support.js';

/**
 * The command line as a GM meets it: versions, wrong values, wrong folders, examples. One run of each case
 * is a process of the built CLI (main.ts, argv, exit code); the others run the same program in this process.
 */
const fatecraft = (...args: string[]) => runInProcess(args);

describe('the command line', () => {
  it('says its version', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const r of [runBuilt(['--version']), await fatecraft('-V')]) {
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    }
  });

  it('refuses a number that is not one, saying what it wants', async () => {
    const cases: [string[], RegExp][] = [
      [['report', DEMO, '--turn', 'abc'], /option '--turn <turn>' argument 'abc' is invalid\. A turn is a whole number, not "abc"\./],
      [['turn', DEMO, '--expect', '2x'], /option '--expect <turn>' argument '2x' is invalid\. A turn is a whole number/],
      [['rerun', DEMO, 'three'], /value 'three' is invalid for argument 'turn'\. A turn is a whole number/],
      [['mail', 'send', DEMO, '--rerun', '0'], /A rerun is a whole number from 1, not "0"/],
      [['generate', '/tmp/never-written', '--nations', '-3'], /--nations is a whole number from 1/],
    ];
    for (const [i, [args, message]] of cases.entries()) {
      const r = i === 0 ? runBuilt(args) : await fatecraft(...args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('says a folder is not a campaign, and when the arguments are the wrong way round, without errno codes', async () => {
    const swapped = runBuilt(['check', join(DEMO, 'campaign.yaml'), DEMO]);
    expect(swapped.status).toBe(1);
    expect(swapped.stderr).toMatch(/campaign\.yaml: this is a file, not a campaign folder: are the arguments the wrong way round\?/);
    for (const command of ['turn', 'status', 'report', 'tick']) {
      const r = await fatecraft(command, join(ROOT, 'docs'));
      expect(r.stderr, command).toMatch(/docs: (FAILED: )?there is no campaign\.yaml here: is this a campaign folder\?/);
      expect(r.stderr, command).not.toMatch(/E[A-Z]{3,}\b|at .*\.[jt]s:\d+/);
    }
  });

  it('gives every command an example in its help', async () => {
    const program = new Command();
    await registerCommands(program);
    const paths: string[] = [];
    const walk = (command: Command, path: string[]) => {
      for (const sub of command.commands) {
        paths.push([...path, sub.name()].join(' '));
        walk(sub, [...path, sub.name()]);
      }
    };
    walk(program, []);
    expect(paths.filter((p) => !EXAMPLES[p]?.length)).toEqual([]);
    // And they are printed, at the end of the help.
    const help = runBuilt(['mail', 'send', '--help']).stdout;
    expect(help).toMatch(/\nExamples:\n {2}fatecraft mail send campaigns\/silversheen\n/);
  });
});

describe('the commands that start a campaign, as processes of the built CLI', () => {
  it('new, start and token: made, started without mail, a token replaced', () => {
    // What they do is tested in test/gm/start.test.ts, in this process; here, that they run as commands.
    const root = mkdtempSync(join(tmpdir(), 'fatecraft-new-'));
    try {
      const env = { FATECRAFT_NOW: '2026-03-02T12:00:00Z', FATECRAFT_SECRETS: join(root, 'private', 'secrets.yaml') };
      const made = runBuilt(['new', 'iron-coast'], { cwd: root, env });
      expect(made.status, made.stderr).toBe(0);
      expect(made.stdout).toContain('Made the campaign "iron-coast"');
      const file = join(root, 'iron-coast', 'campaign.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^mail:\n(?:[ \t]+.*\n)*/m, ''));
      const started = runBuilt(['start', 'iron-coast'], { cwd: root, env });
      expect(started.status, started.stderr).toBe(0);
      expect(started.stdout).toContain('Order tokens: issued for The Northmark (northmark), The Southmoor (southmoor)');
      const before = readFileSync(env.FATECRAFT_SECRETS, 'utf8');
      // Traced (test/support/trace-io.mjs): the IMAP client and the authentication checker are loaded only by what reads mail.
      const trace = join(root, 'trace.txt');
      writeFileSync(trace, '');
      const renewed = runBuilt(['token', 'iron-coast', 'northmark', '--new'], { cwd: root, env: { ...env, FATECRAFT_TRACE: trace }, nodeArgs: ['--import', join(ROOT, 'test', 'support', 'trace-io.mjs')] });
      expect(renewed.status, renewed.stderr).toBe(0);
      expect(readFileSync(env.FATECRAFT_SECRETS, 'utf8')).not.toBe(before);
      const loaded = readFileSync(trace, 'utf8').split('\n').filter((l) => l.startsWith('load '));
      expect(loaded.some((l) => l.includes('/dist/src/gm/'))).toBe(true);
      expect(loaded.filter((l) => /\/node_modules\/(imapflow|mailauth)\//.test(l))).toEqual([]);
      // Nor the reports' rendering, which a new token needs none of (it came with `start`'s starting position).
      expect(loaded.filter((l) => /\/dist\/src\/(report|jobs)\/|\/node_modules\/handlebars\//.test(l))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
