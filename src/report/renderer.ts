import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { gmOrdersOf, nationOrdersFromFiles, ordersDir, readOrderFolder, type NationOrderFile } from '../orders/pending.js';
import { MemorySink, type FileSink } from '../campaign/staging.js';
import { DEFAULT_KEEP_TURNS, startPacking, turnsToPack } from '../campaign/packed-reports.js';
import { CampaignError, pathText } from '../campaign/problems.js';
import { readState, readTurnEvents, turnDirName, type OpenCampaign } from '../campaign/store.js';
import type { LoggedEvent } from '../core/events.js';
import { playedNations } from '../core/campaign.js';
import { asNationId, sortedKeys, type NationId } from '../core/ids.js';
import type { TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import type { TurnRenderer } from '../campaign/turn-renderer.js';
import { plainText } from '../text/escape.js';
import { gmView } from './gm-view.js';
import { publicIndicators } from './nation-view.js';
import { seasonOf } from '../core/phases/upkeep.js';
import { REPORTS_DIR, renderNations, type NationJob } from './nation-jobs.js';
import { ReportCrew, type WorkerJob } from './report-crew.js';
import { SINCE_TURNS, sinceView, type MissedTurn } from './since-view.js';
import type { SinceView } from './types.js';
import { builtInTemplateDir, loadTemplates, NATION_FORMATS, renderGmReport, type NationFormat } from './render.js';

/**
 * The report shell: reads what a turn's reports need beyond the state and the
 * events (the orders sent, the campaign's template folder), builds one view
 * per nation and the GM's view, and returns the files to write under
 * reports/ in the turn folder.
 */
export { REPORTS_DIR };
export const GM_REPORT = 'gm';
/** The turn's public bulletin: every nation's public indicators, the same for everyone. */
export const GAZETTE = 'nations';

export function gazette(campaign: OpenCampaign['campaign'], state: GameState): string {
  const { season, year } = seasonOf(campaign.calendar, state.turn);
  const lines = [`${campaign.title} — the nations after turn ${state.turn} (${season} of ${year})`, '', 'Public indicators (Prosperity, Happiness) of every nation:', ''];
  for (const n of publicIndicators(campaign, state)) {
    lines.push(`- ${n.name} (${n.leader}): Prosperity ${n.prosperity.text}, Happiness ${n.happiness.text}${n.alive ? '' : ' — fallen'}`);
  }
  return `${lines.map(plainText).join('\n')}\n`;
}

/**
 * `reports.formats`: which of each nation's files to make. A GM whose players
 * read only the mail can drop the rest and save their cost in a big campaign.
 */
export const reportFormatsSchema = z
  .array(z.enum(NATION_FORMATS as [NationFormat, ...NationFormat[]]))
  .min(1)
  .refine((list) => list.includes('txt'), 'the text report (txt) is always made: it is the body of the report mail')
  .refine((list) => new Set(list).size === list.length, 'a format is listed twice');

/** campaign.yaml's optional `reports:` block. */
const reportSettingsSchema = z
  .strictObject({
    /** A folder of templates (relative to the campaign) overriding the built-in ones file by file. */
    templates: z.string().min(1).optional(),
    /** Each report lists the GM's operations outside the rules that turn, with their reasons (gm-log.ts). Default: off. */
    gmLog: z.boolean().optional(),
    /** Up to this many nations every report lists them all; beyond it, only those met (the gazette has all). */
    inlineNationsUpTo: z.number().int().min(0).optional(),
    /** What the GM's page carries in full; beyond, it links the nations' reports and events.yaml. */
    gm: z
      .strictObject({
        nationsInFull: z.number().int().min(0).optional(),
        eventsInFull: z.number().int().min(0).optional(),
      })
      .optional(),
    formats: reportFormatsSchema.optional(),
    /** How many of the latest turns keep their reports as they are; older turns' are packed (packed-reports.ts). `all`: never pack. */
    keepTurns: z.union([z.number().int().min(1), z.literal('all')]).optional(),
  })
  .default({});

export interface ReportOptions {
  /** Deadline for the next orders as printed; "to be announced by the GM" when absent. */
  deadline?: string;
  /** The same as players on another clock read it, by nation (src/schedule/player-time.ts). */
  deadlineByNation?: Readonly<Record<string, string>>;
  /** The schedule's lines of the GM's log for this turn (shown when `reports.gmLog` is on). */
  gmLog?: readonly string[];
  /** Only these nations' reports (all when absent). */
  nations?: readonly string[];
  /** Write the GM's report (default: yes). */
  gm?: boolean;
  /** More of this thread's work, done while worker threads (in a big campaign) render the nations: the turn's own files. */
  alongside?: () => Promise<void>;
  /** Report workers started ahead (the renderer's `warm`, `ReportCrew.warm`): taken if they suit, else fresh ones are started. */
  crew?: ReportCrew;
}

export interface ReportInput {
  open: OpenCampaign;
  before: GameState;
  state: GameState;
  events: readonly LoggedEvent[];
  turn: number;
  /** The orders the turn was resolved with, when the caller has them already. */
  orders?: TurnOrders;
  /** The next turn's deadline, when a schedule set one. */
  nextDeadline?: string;
  nextDeadlineByNation?: Readonly<Record<string, string>>;
  gmLog?: readonly string[];
}

/** campaign.yaml's `reports:` block, checked. */
export function reportSettings(open: OpenCampaign): z.infer<typeof reportSettingsSchema> {
  const parsed = reportSettingsSchema.safeParse(open.file.reports ?? undefined);
  if (!parsed.success) {
    throw new CampaignError(parsed.error.issues.map((i) => ({ file: join(open.dir, 'campaign.yaml'), path: `reports.${pathText(i.path)}`, message: i.message })));
  }
  return parsed.data;
}

/** The template folders for a campaign, most specific first. */
export function templateDirs(open: OpenCampaign): string[] {
  const parsed = { data: reportSettings(open) };
  const dirs: string[] = [];
  if (parsed.data.templates) {
    const dir = resolve(open.dir, parsed.data.templates);
    if (!existsSync(dir)) throw new CampaignError([{ file: join(open.dir, 'campaign.yaml'), path: 'reports.templates', message: `the folder ${dir} does not exist` }]);
    dirs.push(dir);
  } else if (existsSync(join(open.dir, 'templates'))) {
    dirs.push(join(open.dir, 'templates'));
  }
  dirs.push(builtInTemplateDir());
  return dirs;
}

/**
 * The orders a turn was resolved with: the copy kept in the turn folder when
 * it exists (re-rendering later), else the pending orders folder (while the
 * turn is being written). Unreadable files give what can be read; reports
 * never fail over a player's file.
 */
export async function readTurnOrders(open: OpenCampaign, before: GameState, turn: number): Promise<TurnOrders> {
  const kept = join(open.dir, 'turns', turnDirName(turn), 'orders');
  const dir = existsSync(kept) ? kept : ordersDir(open.dir, turn);
  const folder = await readOrderFolder(dir, (id) => open.campaign.nations[asNationId(id)] !== undefined);
  const files: NationOrderFile[] = folder.nations.map(({ nation, read, format }) => ({ nation: asNationId(nation), read, format }));
  // As the turn read them: a seat's policy's orders for a nation whose player sent none.
  for (const { nation, policy, read } of folder.seats) if (!files.some((n) => n.nation === nation)) files.push({ nation, policy, read });
  // The GM's adjustments too: the GM's log of the turn's reports tells each nation of its own.
  return { nations: await nationOrdersFromFiles(open, before, files), gm: folder.gm ? gmOrdersOf(open, folder.gm, turn) : [] };
}

export function checkNationIds(open: OpenCampaign): void {
  for (const [reserved, what] of [[GM_REPORT, `reports/${GM_REPORT}.html is the GM's report`], [GAZETTE, `reports/${GAZETTE}.txt is the turn's gazette`]] as const) {
    if (open.campaign.nations[asNationId(reserved)]) {
      throw new CampaignError([{ file: join(open.dir, 'campaign.yaml'), path: `nations.${reserved}`, message: `a nation may not have the id "${reserved}": ${what}` }]);
    }
  }
}

/**
 * Writes every report file of a turn into the sink, by path relative to the
 * turn folder. The GM's report (and `alongside`, the turn's own files) is made
 * in this thread while worker threads (in a big campaign) make the nations'.
 */
export async function writeReportsTo(sink: FileSink, input: ReportInput, opts: ReportOptions = {}): Promise<void> {
  const { open, before, state, events } = input;
  checkNationIds(open);
  const campaign = open.campaign;
  const orders = input.orders ?? (await readTurnOrders(open, before, input.turn));
  const deadline = opts.deadline !== undefined ? { deadline: opts.deadline } : {};
  // The rebels are nobody's to play: no report of their own (the GM's report shows them). Nor has a nation in
  // waiting (breaksFrom) that was not in play before or after this turn: it has nothing to read yet (rules.md L3).
  const waiting = (n: NationId) => campaign.nations[n]?.breaksFrom !== undefined && !before.nations[n]?.alive && !state.nations[n]?.alive;
  const wanted: NationId[] = opts.nations ? opts.nations.map(asNationId) : playedNations(campaign).filter((n) => !waiting(n));
  for (const nation of wanted) {
    if (!campaign.nations[nation]) {
      throw new CampaignError([{ file: join(open.dir, 'campaign.yaml'), message: `no nation "${nation}" (nations: ${sortedKeys(campaign.nations).join(', ')})` }]);
    }
  }
  const settings = reportSettings(open);
  const inline = settings.inlineNationsUpTo !== undefined ? { inlineNationsUpTo: settings.inlineNationsUpTo } : {};
  const formats = settings.formats ? { formats: settings.formats } : {};
  const dirs = templateDirs(open);
  const byNation = opts.deadlineByNation && opts.deadline !== undefined ? { deadlineByNation: opts.deadlineByNation } : {};
  const gmLog = settings.gmLog ? { gmLog: opts.gmLog ?? [] } : {};
  const back = await playersBack(open, input.turn, before, orders, wanted);
  const job: NationJob = { campaign, before, state, events, nations: wanted, orders, legend: open.file.map.legend, templateDirs: dirs, ...deadline, ...byNation, ...gmLog, ...inline, ...formats, ...(back ? { since: back } : {}) };
  const templates = loadTemplates(dirs);
  // The GM's report and the gazette are this thread's own work while workers (in a big campaign) make the nations' files.
  const beside = async () => {
    await opts.alongside?.();
    // The gazette is everyone's, like the GM's report: written unless only some nations are re-rendered.
    if (!opts.nations) await sink.write(`${REPORTS_DIR}/${GAZETTE}.txt`, gazette(campaign, state));
    if (opts.gm !== false) {
      const view = gmView(campaign, before, state, events, {
        ...deadline,
        orders,
        legend: open.file.map.legend,
        ...settings.gm,
        nationReport: !settings.formats || settings.formats.includes('html') ? 'html' : 'txt',
      });
      const gm = renderGmReport(view, templates);
      await sink.write(`${REPORTS_DIR}/${GM_REPORT}.html`, gm.html);
      // One copy of the world map, in the page; a file of its own only when the campaign asks for maps apart.
      if (settings.formats?.includes('svg')) await sink.write(`${REPORTS_DIR}/${GM_REPORT}.svg`, gm.svg);
    }
  };
  await renderNations(job, sink, templates, beside, opts.crew);
}

/** What a report worker is started with for this campaign. */
function workerJob(open: OpenCampaign): WorkerJob {
  const formats = reportSettings(open).formats;
  return { campaign: open.campaign, templateDirs: templateDirs(open), ...(formats ? { formats } : {}) };
}

/**
 * The nations whose players sent orders this turn after missing some: what befell each meanwhile
 * (since-view.ts), from the missed turns' logs, each read once whoever needs it. Undefined when none is back.
 */
async function playersBack(open: OpenCampaign, turn: number, before: GameState, orders: TurnOrders, nations: readonly NationId[]): Promise<Record<string, SinceView> | undefined> {
  const back = nations.filter((n) => orders.nations[n] !== undefined && (before.nations[n]?.missedTurns ?? 0) > 0);
  if (!back.length) return undefined;
  const logs = new Map<number, LoggedEvent[]>();
  const starts = new Map<number, GameState>();
  const out: Record<string, SinceView> = {};
  for (const nation of back) {
    const missed = before.nations[nation]!.missedTurns;
    const first = Math.max(1, turn - Math.min(missed, SINCE_TURNS));
    const turns: MissedTurn[] = [];
    for (let t = first; t < turn; t++) {
      if (!logs.has(t)) logs.set(t, await readTurnEvents(open.dir, t));
      turns.push({ turn: t, events: logs.get(t)! });
    }
    if (!starts.has(first - 1)) starts.set(first - 1, await readState(open.dir, first - 1, open.campaign));
    const view = sinceView(open.campaign, nation, missed, turns, starts.get(first - 1)!, before);
    if (view) out[nation] = view;
  }
  return out;
}

/** Every report file of a turn, in memory, by path relative to the turn folder (small campaigns, tests). */
export async function renderReports(input: ReportInput, opts: ReportOptions = {}): Promise<Record<string, string>> {
  const sink = new MemorySink();
  await writeReportsTo(sink, input, opts);
  return sink.files as Record<string, string>;
}

/** The TurnRenderer `fatecraft turn` plugs in: every report, written with the turn. */
export function reportRenderer(opts: Pick<ReportOptions, 'deadline' | 'deadlineByNation'> = {}): TurnRenderer {
  // Workers started by `warm` for the turn about to be resolved; the render takes them.
  let crew: ReportCrew | undefined;
  const render: TurnRenderer = (input, sink, alongside) => {
    const taken = crew;
    crew = undefined;
    return writeReportsTo(sink, input, { ...opts, ...(input.nextDeadline ? { deadline: input.nextDeadline } : {}), ...(input.nextDeadlineByNation ? { deadlineByNation: input.nextDeadlineByNation } : {}), ...(input.gmLog ? { gmLog: input.gmLog } : {}), ...(alongside ? { alongside } : {}), ...(taken ? { crew: taken } : {}) });
  };
  render.warm = (open, before) => {
    crew?.dismiss();
    const started = ReportCrew.warm(workerJob(open), playedNations(open.campaign).length, before);
    crew = started;
    return {
      dismiss: () => {
        started.dismiss();
        if (crew === started) crew = undefined;
      },
    };
  };
  // Older turns' reports are packed beside the turn (their archives written while it resolves).
  render.olderTurns = async (open, turn) => {
    const keep = reportSettings(open).keepTurns ?? DEFAULT_KEEP_TURNS;
    return startPacking(open.dir, keep === 'all' ? [] : await turnsToPack(open.dir, turn, keep));
  };
  // Settings, reserved ids and the templates themselves (they compile here) are checked before the turn is resolved.
  render.check = (open) => {
    checkNationIds(open);
    reportSettings(open);
    loadTemplates(templateDirs(open));
  };
  return render;
}
