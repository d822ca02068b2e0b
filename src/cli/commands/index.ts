import type { Command } from 'commander';
import { addExamples } from '../examples.js';

type Register = (program: Command) => void;

/**
 * Every command, one file each, loaded when needed: all of them together pull
 * in the mail libraries and most of the program, 0.6-0.8 s before anything
 * runs, and `fatecraft turn` under cron needs none of the mail code. The
 * order here is the order of the help text.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  new: async () => (await import('./new.js')).registerNew,
  start: async () => (await import('./start.js')).registerStart,
  turn: async () => (await import('./turn.js')).registerTurn,
  report: async () => (await import('./report.js')).registerReport,
  generate: async () => (await import('./generate.js')).registerGenerate,
  check: async () => (await import('./check.js')).registerCheck,
  mail: async () => (await import('./mail.js')).registerMail,
  tick: async () => (await import('./tick.js')).registerTick,
  daemon: async () => (await import('./daemon.js')).registerDaemon,
  serve: async () => (await import('./serve.js')).registerServe,
  status: async () => (await import('./status.js')).registerStatus,
  rerun: async () => (await import('./rerun.js')).registerRerun,
  rollback: async () => (await import('./rollback.js')).registerRollback,
  extend: async () => (await import('./extend.js')).registerExtend,
  pause: async () => (await import('./pause.js')).registerPause,
  resume: async () => (await import('./resume.js')).registerResume,
  nation: async () => (await import('./nation.js')).registerNation,
  token: async () => (await import('./token.js')).registerToken,
  repair: async () => (await import('./repair.js')).registerRepair,
};

/** What `fatecraft --version` is asked with: the program's own option, which needs no command. */
const VERSION_FLAGS: readonly string[] = ['-V', '--version'];

/**
 * Registers the command `argv` names (["node", "fatecraft", "<command>", ...]),
 * none for `--version` (which loaded the whole program for one line), or every
 * command when it names none of them (help, a typo, no argv): the help text and
 * commander's suggestions need them all.
 */
export async function registerCommands(program: Command, argv?: readonly string[]): Promise<void> {
  const named = argv?.[2];
  if (named !== undefined && VERSION_FLAGS.includes(named)) return;
  const wanted = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
  const registers = await Promise.all(wanted.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program);
  addExamples(program);
}
