import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CampaignError } from '../campaign/problems.js';
import { latestTurn, openCampaign, type OpenCampaign } from '../campaign/store.js';
import type { MailroomOptions } from '../mailroom/room.js';
import type { Clock } from '../schedule/clock.js';
import { firstDeadline, localTime } from '../schedule/deadline.js';
import { withCampaignLock, type LockOwner } from '../schedule/lock.js';
import { logOp, newRuntime, readRuntime, writeRuntime, type Runtime } from '../schedule/runtime.js';
import { scheduleOf, type Schedule } from '../schedule/settings.js';
import { recoverJournal } from '../campaign/journal.js';
import { recoverOperation, runWhole, type WholeOperation } from '../schedule/whole-operation.js';
import { deadlineClock, deadlinesByNation } from '../schedule/player-time.js';

/**
 * What every GM operation shares: it holds the campaign's lock (no tick runs
 * meanwhile), finishes an interrupted multi-file write first and completes or
 * undoes an interrupted whole operation (src/schedule/whole-operation.ts), works on the runtime,
 * and leaves a line in its log.
 */
export interface GmOptions {
  clock: Clock;
  /** How long to wait for a campaign busy with another command (ms; default 0: refuse at once). */
  lockWaitMs?: number;
  /** Told once when the operation waits for the lock. */
  onLockWait?: (owner: LockOwner | undefined) => void;
  /** Why the GM does it (`--reason`): kept in the log, and shown to the players with the GM's log. */
  reason?: string;
  /** Where the secrets file is looked for (FATECRAFT_SECRETS); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Told when the command found a GM operation a crash had interrupted, and completed or undid it. */
  onRecovered?: (line: string) => void;
}

export interface GmContext {
  dir: string;
  open: OpenCampaign;
  schedule: Schedule;
  runtime: Runtime;
  now: Date;
  /** The latest resolved turn on disk (0: only the starting position, or none yet). */
  latest: number;
  save(): Promise<void>;
  /**
   * A line in runtime.yaml's log (with the operation's reason). `players`: the operation changed the game
   * outside the rules, so the reports of that turn list it in the GM's log (no secrets in `text`).
   */
  log(op: string, detail: string, turn?: number, players?: { turn: number; text: string }): void;
  local(at: Date | string): string;
  /** A deadline as players on another clock read it, by nation (player-time.ts). */
  byNation(at: Date | string): Record<string, string>;
  refuse(message: string): never;
  /** Carries out an operation whole or not at all (src/schedule/whole-operation.ts); the ids of the notices it added. */
  whole(op: WholeOperation): Promise<number[]>;
  env: NodeJS.ProcessEnv;
}

export async function withGm<T>(dir: string, what: string, opts: GmOptions, work: (ctx: GmContext) => Promise<T>): Promise<T> {
  const open = await openCampaign(dir);
  const schedule = scheduleOf(open.file, join(dir, 'campaign.yaml'));
  const lock = { clock: opts.clock, what, timeZone: schedule.timeZone, ...(opts.lockWaitMs ? { waitMs: opts.lockWaitMs } : {}), ...(opts.onLockWait ? { onWait: opts.onLockWait } : {}) };
  return withCampaignLock(dir, lock, async () => {
    await recoverJournal(dir);
    // Re-read under the lock: a journal may just have changed campaign.yaml.
    const fresh = await openCampaign(dir);
    const now = opts.clock.now();
    const latest = (await latestTurn(dir)) ?? 0;
    const runtime = (await readRuntime(dir)) ?? newRuntime(latest + 1, firstDeadline(schedule, now));
    const env = opts.env ?? process.env;
    const recovered = await recoverOperation({ dir, runtime, now, campaignName: fresh.campaign.name, env });
    if (recovered) {
      await writeRuntime(dir, runtime);
      opts.onRecovered?.(recovered.line);
    }
    const save = () => writeRuntime(dir, runtime);
    const ctx: GmContext = {
      dir,
      open: fresh,
      schedule,
      runtime,
      now,
      latest,
      save,
      env,
      whole: (op) => runWhole({ dir, runtime, now, campaignName: fresh.campaign.name, env, ...(opts.reason ? { reason: opts.reason } : {}), save }, op),
      log: (op, detail, turn, players) => logOp(runtime, now, op, detail, turn, { ...(opts.reason ? { reason: opts.reason } : {}), ...(players ? { players } : {}) }),
      local: (at) => localTime(new Date(at), schedule.timeZone),
      byNation: (at) => deadlinesByNation(deadlineClock(new Date(at), schedule.timeZone, fresh.file, runtime)),
      refuse: (message) => {
        throw new CampaignError([{ file: dir, message }]);
      },
    };
    return work(ctx);
  });
}

/** The next free "<name>.<label>-<k>" beside `name` in a folder (k from 1). */
export async function nextAsideIndex(folder: string, label: string, name?: string): Promise<number> {
  if (!existsSync(folder)) return 1;
  const pattern = new RegExp(`^${name ? name.replace(/[.]/g, '\\.') : '\\d{4,}'}\\.${label}-(\\d+)$`);
  let max = 0;
  for (const entry of await readdir(folder)) {
    const m = pattern.exec(entry);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max + 1;
}

/** The folder "<name>.<label>-<k>" with the highest k beside `name`, if any (a move an interrupted operation made). */
export async function newestAside(folder: string, name: string, label: string): Promise<string | undefined> {
  const k = (await nextAsideIndex(folder, label, name)) - 1;
  return k >= 1 ? join(folder, `${name}.${label}-${k}`) : undefined;
}

/**
 * A GM clock as the mailroom's: pauses between retries wait on it (a fake clock jumps). Here, not in
 * start.ts, so that `token` and `nation offer` do not load the starting position's report writing.
 */
export function mailClock(clock: Clock): NonNullable<MailroomOptions['clock']> {
  return { now: () => clock.now(), sleep: (ms) => clock.sleepUntil(new Date(clock.now().getTime() + ms)) };
}
