import { existsSync } from 'node:fs';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { writeFileAtomic } from '../host/atomic-file.js';
import { parseIsoTime } from '../campaign/iso-time.js';
import { latestTurn, turnDirName } from '../campaign/turn-folders.js';
import { checkTurnFolder } from '../campaign/turn-manifest.js';
import type { Clock } from './clock.js';
import { parseDuration } from './duration.js';
import { failpoint } from '../host/failpoints.js';
import { planTick } from './plan.js';
import type { Runtime } from './runtime.js';
import { DEFAULT_SCHEDULE } from './schedule-defaults.js';
import type { Schedule } from './settings.js';
import { LockBusyError, withCampaignLock } from './lock.js';
import type { TickOutcome } from './tick.js';

/**
 * A tick with nothing to do, done without the rest of the program. Cron runs
 * `fatecraft tick` every few minutes and almost every run finds nothing due;
 * loading the mail room, the engine and the reports and reading the whole
 * state for that cost a second or more a run on a big campaign. Here a tick
 * reads only what can make something due — runtime.yaml, the schedule block,
 * the inbox's listing, the outgoing queue's pending marks, the latest turn's
 * manifest — and when nothing is, it records the tick (runtime.yaml's
 * lastTick, which the long-gap guard relies on) and stops.
 *
 * It hands over to `fullTick`, still holding the lock, whenever it is not sure:
 * anything unusual in these files, IMAP mail (the inbox is on a server), a
 * GM journal, a turn to book, reports, notices or alerts owed, a reminder or
 * the deadline reached. The full tick then reads, validates and reports as
 * it always did; the answer here never differs from its answer, only its cost.
 */
export async function idleTick(dir: string, clock: Clock, fullTick: () => Promise<TickOutcome>): Promise<TickOutcome> {
  const settings = await lightSettings(dir);
  if (!settings) return fullTick();
  const now = clock.now();
  const outcome: TickOutcome = { dir, status: 'ok', lines: [], resolved: [] };
  let handedOver = false;
  try {
    return await withCampaignLock(dir, { clock, what: 'tick', timeZone: settings.schedule.timeZone, onRecovered: (o) => outcome.lines.push(`took over the lock of process ${o.pid} (${o.what}, since ${o.since}), which is no longer running`) }, async () => {
      await failpoint('locked');
      if (!(await recordIdleTick(dir, settings, now, outcome))) {
        // Still under this lock (it is re-entrant): no other command can slip in while the rest loads.
        handedOver = true;
        const full = await fullTick();
        return { ...full, lines: [...outcome.lines, ...full.lines] };
      }
      return outcome;
    });
  } catch (e) {
    if (e instanceof LockBusyError) return { ...outcome, status: 'busy', error: e.message };
    if (handedOver) throw e;
    // Something here went wrong (an unreadable folder, a full disk): the full tick meets it and says so.
    return fullTick();
  }
}

/** True when nothing is due: the tick is then recorded (lastTick) and told in `outcome`. */
async function recordIdleTick(dir: string, settings: LightSettings, now: Date, outcome: TickOutcome): Promise<boolean> {
  if (settings.mail && !(await mailIdle(dir))) return false;
  if (existsSync(join(dir, '.gm-journal.json'))) return false;
  const runtime = await lightRuntime(dir);
  if (!runtime) return false;
  const latest = await latestTurn(dir);
  if (latest === undefined || runtime.value.turn !== latest + 1) return false;
  if (settings.rollCall && runtime.value.turn === 1 && runtime.value.rollCall?.told === undefined) return false;
  if (await checkTurnFolder(join(dir, 'turns', turnDirName(latest)), latest)) return false;
  const plan = planTick({ runtime: runtime.value, schedule: settings.schedule, now, mailOk: true, submitted: [], active: [] });
  // Reminders, holds and resolution need who sent orders and who is alive: the full tick's.
  if (plan.actions.some((a) => a.kind !== 'wait')) return false;
  for (const a of plan.actions) if (a.kind === 'wait') outcome.lines.push(`turn ${a.turn} waits: ${a.reason}`);
  if (plan.nextEvent) outcome.nextEvent = plan.nextEvent;
  // The one change an idle tick makes, written as writeRuntime would write it.
  await writeFileAtomic(join(dir, 'runtime.yaml'), runtime.text.replace(LAST_TICK, `lastTick: ${now.toISOString()}`), { fsync: true });
  return true;
}

const LAST_TICK = /^lastTick: \S+$/m;

interface LightSettings {
  schedule: Schedule;
  mail: boolean;
  /** The schedule has a roll-call before turn 1 (the full tick decides when it is due). */
  rollCall: boolean;
}

const plainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The schedule's times and whether mail is set up, from campaign.yaml's
 * `schedule:` and `mail:` blocks read as plain YAML (the whole file, with a
 * thousand nations, takes longer to parse than the rest of an idle tick).
 * Only the plainest forms are taken (what the full check would accept,
 * written simply); the rest is left to the full tick to judge.
 */
async function lightSettings(dir: string): Promise<LightSettings | undefined> {
  let file: unknown;
  try {
    const blocks = topLevelBlocks(await readFile(join(dir, 'campaign.yaml'), 'utf8'), ['schedule', 'mail']);
    if (!blocks) return undefined;
    file = jsyaml.load(blocks, { schema: jsyaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (!plainObject(file) || !plainObject(file.schedule)) return undefined;
  const s = file.schedule;
  // Early resolution hangs on who has sent orders, which only the full tick reads.
  if (s.early !== undefined && s.early !== false) return undefined;
  const mail = file.mail;
  if (mail !== undefined && !(plainObject(mail) && (mail.transport === undefined || mail.transport === 'folder'))) return undefined;
  const labels = s.reminders ?? DEFAULT_SCHEDULE.reminders;
  const grace = s.grace === 0 ? 0 : typeof (s.grace ?? DEFAULT_SCHEDULE.grace) === 'string' ? parseDuration((s.grace ?? DEFAULT_SCHEDULE.grace) as string) : undefined;
  const timeZone = s.timeZone ?? DEFAULT_SCHEDULE.timeZone;
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string' && (parseDuration(l) ?? 0) > 0) || grace === undefined || typeof timeZone !== 'string') return undefined;
  const reminders = [...new Set(labels as string[])].map((label) => ({ label, before: parseDuration(label)! })).sort((a, b) => b.before - a.before);
  // Only reminders and grace decide before the deadline; past it the full tick plans with the validated block.
  const schedule: Schedule = { deadline: DEFAULT_SCHEDULE.deadline, timeZone, reminders, grace, nmrGuardShare: 0, maxTickGap: 0, minTurnLength: 0, early: false, nextDeadlineFrom: DEFAULT_SCHEDULE.nextDeadlineFrom };
  return { schedule, mail: mail !== undefined, rollCall: s.rollCall !== undefined };
}

/**
 * The schedule's time zone, read as the idle tick reads the block, for the
 * busy message of a command that has not taken the lock yet (parsing the
 * whole campaign for it cost a second parse of campaign.yaml per command).
 * Undefined when it cannot be told simply or is not a zone Intl knows.
 */
export async function scheduleTimeZone(dir: string): Promise<string | undefined> {
  try {
    const blocks = topLevelBlocks(await readFile(join(dir, 'campaign.yaml'), 'utf8'), ['schedule']);
    if (blocks === undefined) return undefined;
    const file = jsyaml.load(blocks, { schema: jsyaml.CORE_SCHEMA });
    const zone = plainObject(file) && plainObject(file.schedule) ? (file.schedule.timeZone ?? DEFAULT_SCHEDULE.timeZone) : DEFAULT_SCHEDULE.timeZone;
    if (typeof zone !== 'string') return undefined;
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/**
 * The text of these top-level keys' blocks: each key's line and the indented,
 * blank and comment lines after it. Undefined when the file is not laid out
 * so simply (several documents, a key twice), for the full reader to judge.
 */
export function topLevelBlocks(text: string, keys: readonly string[]): string | undefined {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  const seen = new Set<string>();
  let taking = false;
  for (const line of lines) {
    if (/^(---|\.\.\.)(\s|$)/.test(line)) return undefined;
    if (line === '' || /^[ \t]/.test(line) || line.startsWith('#')) {
      if (taking) out.push(line);
      continue;
    }
    const key = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)/.exec(line)?.[1];
    taking = key !== undefined && keys.includes(key);
    if (taking) {
      if (seen.has(key!)) return undefined;
      seen.add(key!);
      out.push(line);
    }
  }
  return out.join('\n');
}

/**
 * runtime.yaml when it owes nothing (no operation, resolution, report,
 * notice or alert pending) and is in the shape writeRuntime gives it; the
 * text too, for the lastTick update.
 */
async function lightRuntime(dir: string): Promise<{ value: Runtime; text: string } | undefined> {
  let text: string;
  let value: unknown;
  try {
    text = await readFile(join(dir, 'runtime.yaml'), 'utf8');
    value = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (!plainObject(value) || value.version !== 1 || !Number.isInteger(value.turn) || (value.turn as number) < 1) return undefined;
  if (value.operation !== undefined || value.resolving !== undefined) return undefined;
  if (typeof value.deadline !== 'string' || parseIsoTime(value.deadline) === undefined) return undefined;
  if (typeof value.lastTick !== 'string' || parseIsoTime(value.lastTick) === undefined || text.match(new RegExp(LAST_TICK, 'gm'))?.length !== 1) return undefined;
  if (!Array.isArray(value.reportsDue) || value.reportsDue.length > 0) return undefined;
  if (!Array.isArray(value.notices) || value.notices.some((n) => !plainObject(n) || n.sent !== true)) return undefined;
  if (!Array.isArray(value.alerts) || value.alerts.some((a) => !plainObject(a) || a.mailed !== true)) return undefined;
  if (!plainObject(value.reminders) || !Array.isArray(value.holds)) return undefined;
  if (value.paused !== undefined && !(plainObject(value.paused) && typeof value.paused.since === 'string')) return undefined;
  return { value: value as unknown as Runtime, text };
}

/** Nothing in the folder inbox (as FolderInbox lists it) and nothing pending in the outgoing queue. */
async function mailIdle(dir: string): Promise<boolean> {
  const inbox = await readdir(join(dir, 'mail', 'inbox'), { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? [] : undefined));
  if (inbox === undefined || inbox.some((e) => e.isFile() && !e.name.startsWith('.') && e.name.toLowerCase().endsWith('.eml'))) return false;
  const queueDir = join(dir, 'mail', 'outbox-queue');
  const queued = await readdir(queueDir).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? [] : undefined));
  if (queued === undefined) return false;
  for (const name of queued) {
    if (!name.endsWith('.yaml')) continue;
    // The queue writes status as the third key; its first bytes say whether the message still waits.
    if (!/^status: (sent|failed)$/m.test(await head(join(queueDir, name)))) return false;
  }
  return true;
}

async function head(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
