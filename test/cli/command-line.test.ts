import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/commands/index.js';
import { EXAMPLES } from '../../src/cli/examples.js';
import { CLI, DEMO, ensureBuilt, ROOT } from '../schedule/support.js';

/** The command line as a GM meets it: versions, wrong values, wrong folders, examples. */

const fatecraft = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

describe('the command line', () => {
  it('says its version', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-V']) {
      const r = fatecraft(flag);
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    }
  });

  it('refuses a number that is not one, saying what it wants', () => {
    const cases: [string[], RegExp][] = [
      [['report', DEMO, '--turn', 'abc'], /option '--turn <turn>' argument 'abc' is invalid\. A turn is a whole number, not "abc"\./],
      [['turn', DEMO, '--expect', '2x'], /option '--expect <turn>' argument '2x' is invalid\. A turn is a whole number/],
      [['rerun', DEMO, 'three'], /value 'three' is invalid for argument 'turn'\. A turn is a whole number/],
      [['mail', 'send', DEMO, '--rerun', '0'], /A rerun is a whole number from 1, not "0"/],
      [['generate', '/tmp/never-written', '--nations', '-3'], /--nations is a whole number from 1/],
    ];
    for (const [args, message] of cases) {
      const r = fatecraft(...args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('says a folder is not a campaign, and when the arguments are the wrong way round, without errno codes', () => {
    const swapped = fatecraft('check', join(DEMO, 'campaign.yaml'), DEMO);
    expect(swapped.status).toBe(1);
    expect(swapped.stderr).toMatch(/campaign\.yaml: this is a file, not a campaign folder: are the arguments the wrong way round\?/);
    for (const command of ['turn', 'status', 'report', 'tick']) {
      const r = fatecraft(command, join(ROOT, 'docs'));
      expect(r.stderr, command).toMatch(/docs: (FAILED: )?there is no campaign\.yaml here: is this a campaign folder\?/);
      expect(r.stderr, command).not.toMatch(/E[A-Z]{3,}\b|at .*\.js:\d+/);
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
    const help = fatecraft('mail', 'send', '--help').stdout;
    expect(help).toMatch(/\nExamples:\n {2}fatecraft mail send campaigns\/silversheen\n/);
  });
});
