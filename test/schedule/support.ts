import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { turnDirName } from '../../src/campaign/store.js';
import type { TickHooks } from '../../src/schedule/hooks.js';
import type { Alert, Notice } from '../../src/schedule/runtime.js';
import { ROOT } from '../support/built-cli.js';

export { CLI, ensureBuilt, ROOT } from '../support/built-cli.js';
export const DEMO = join(ROOT, 'campaigns', 'silversheen');
export const NATIONS = ['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia'];

const scratchRoot = mkdtempSync(join(tmpdir(), 'fatecraft-schedule-'));
export const cleanupScratch = () => rmSync(scratchRoot, { recursive: true, force: true });

let n = 0;
/**
 * A copy of the demo campaign with a schedule block appended (the demo has
 * none). Without `keepMail` its `mail:` block and mail folder are removed, so
 * tick uses the folder hooks (messages in tick-outbox/) and these tests see
 * the schedule shell alone.
 */
export function demoCopy(label: string, schedule: string = DEFAULT_TEST_SCHEDULE, opts: { keepMail?: boolean } = {}): string {
  const dir = join(scratchRoot, `${label}-${++n}`);
  cpSync(DEMO, dir, { recursive: true });
  rmSync(join(dir, 'turns'), { recursive: true, force: true }); // start from the start sheets, like a new campaign
  mkdirSync(join(dir, 'turns'));
  cpSync(join(DEMO, 'turns', '0000'), join(dir, 'turns', '0000'), { recursive: true });
  let text = readFileSync(join(dir, 'campaign.yaml'), 'utf8');
  if (!opts.keepMail) {
    text = text.replace(/^mail:\n(?:[ \t]+.*\n|\s*\n)*/m, '');
    rmSync(join(dir, 'mail'), { recursive: true, force: true });
  }
  if (schedule) text += `\nschedule:\n${schedule}`;
  writeFileSync(join(dir, 'campaign.yaml'), text);
  return dir;
}

export function scratchDir(label: string): string {
  const dir = join(scratchRoot, `${label}-${++n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Sundays 18:00 London, reminders 48h and 6h before, 15 minutes' grace. */
export const DEFAULT_TEST_SCHEDULE = `  deadline: "0 18 * * 0"
  timeZone: Europe/London
  reminders: [48h, 6h]
  grace: 15m
  firstDeadline: 2025-03-23T18:00:00Z
`;

/** Empty but valid orders for these nations (each holds everything). */
export function writeOrders(dir: string, turn: number, nations: string[]): void {
  const folder = join(dir, 'orders', turnDirName(turn));
  mkdirSync(folder, { recursive: true });
  for (const nation of nations) writeFileSync(join(folder, `${nation}.yaml`), `nation: ${nation}\nturn: ${turn}\norders: []\n`);
}

export interface Recorded {
  reminders: { turn: number; label: string; nations: string[]; at: string }[];
  reports: { turn: number; rerun: number; at: string }[];
  alerts: Alert[];
  notices: Notice[];
  fetches: number;
}

/** Hooks that remember every call, for assertions. */
export function recordingHooks(overrides: Partial<TickHooks> = {}): { hooks: TickHooks; sent: Recorded } {
  const sent: Recorded = { reminders: [], reports: [], alerts: [], notices: [], fetches: 0 };
  const hooks: TickHooks = {
    async fetchMail() {
      sent.fetches++;
    },
    async sendReminders(ctx, r, nations) {
      sent.reminders.push({ turn: r.turn, label: r.label, nations: [...nations], at: ctx.now.toISOString() });
    },
    async sendReports(ctx, d) {
      sent.reports.push({ turn: d.turn, rerun: d.rerun, at: ctx.now.toISOString() });
    },
    async sendGmAlert(_ctx, a) {
      sent.alerts.push(structuredClone(a));
    },
    async sendNotice(_ctx, notice) {
      sent.notices.push(structuredClone(notice));
    },
    ...overrides,
  };
  return { hooks, sent };
}

/** Every file under a folder, by relative path (for before/after comparisons). */
export function tree(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      const rel = relative(dir, path);
      if (skip(rel)) continue;
      if (entry.isDirectory()) walk(path);
      else out[rel] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}
