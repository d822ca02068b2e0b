import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import type { NationId } from '../core/ids.js';
import type { TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { nationView } from './nation-view.js';
import { gmLogLines } from './gm-log.js';
import { isFolderSink, type FileSink } from '../campaign/staging.js';
import { CLAIMED_HERE, ReportCrew, reportThreads, UNCLAIMED, type Hand, type WorkerJob } from './report-crew.js';
import { NATION_FORMATS, renderNationReports, type NationFormat, type ReportTemplates } from './render.js';
import type { NationView, SinceView } from './types.js';

/**
 * Rendering the nations' reports. A nation's view is made from the whole turn
 * (the world before and after, the events, the orders); its files are made
 * from the view alone, with the campaign's map and catalogue. So in a big
 * campaign this thread, which has the turn, makes every view, and worker
 * threads, which need only the campaign and the templates, turn views into
 * files: a worker starts in a fraction of a second instead of first
 * receiving and indexing the whole world, and holds one view at a time
 * rather than a copy of it. This thread makes files too whenever the workers
 * have enough in hand. A small campaign renders in this thread alone. The
 * files are the same bytes either way.
 */
export interface NationJob {
  campaign: Campaign;
  before: GameState;
  state: GameState;
  events: readonly LoggedEvent[];
  nations: readonly NationId[];
  orders: TurnOrders;
  legend: Readonly<Record<string, string>>;
  templateDirs: readonly string[];
  deadline?: string;
  /** The deadline as players on another clock read it, by nation; the others read `deadline`. */
  deadlineByNation?: Readonly<Record<string, string>>;
  /** With `reports.gmLog`: the schedule's lines of the GM's log; each nation's adjustments are added (gm-log.ts). */
  gmLog?: readonly string[];
  inlineNationsUpTo?: number;
  /** Which of a nation's files to make (campaign.yaml `reports.formats`; DEFAULT_NATION_FORMATS when absent). */
  formats?: readonly NationFormat[];
  /** For players back after missed turns: what befell their nation meanwhile (since-view.ts), by nation. */
  since?: Readonly<Record<string, SinceView>>;
}

export const REPORTS_DIR = 'reports';

export function jobNationView(job: NationJob, nation: NationId): NationView {
  const view = nationView(job.campaign, job.before, job.state, job.events, nation, {
    orders: job.orders,
    legend: job.legend,
    ...(job.deadline !== undefined ? { deadline: job.deadlineByNation?.[nation] ?? job.deadline } : {}),
    ...(job.inlineNationsUpTo !== undefined ? { inlineNationsUpTo: job.inlineNationsUpTo } : {}),
  });
  const since = job.since?.[nation];
  const withSince = since ? { ...view, since } : view;
  return job.gmLog ? { ...withSince, gmLog: gmLogLines(job.campaign, nation, job.gmLog, job.orders.gm) } : withSince;
}

/** One nation's files (DEFAULT_NATION_FORMATS unless the campaign says), by path relative to the turn folder. */
export function viewFiles(view: NationView, campaign: Campaign, templates: ReportTemplates, formats?: readonly NationFormat[]): [string, string][] {
  const out = renderNationReports(view, campaign, templates, formats);
  const files: [string, string][] = [];
  for (const format of NATION_FORMATS) {
    const content = out[format];
    if (content !== undefined) files.push([`${REPORTS_DIR}/${view.nation.id}${FILE_ENDINGS[format]}`, content]);
  }
  return files;
}

const FILE_ENDINGS: Record<NationFormat, string> = { txt: '.txt', html: '.html', yaml: '.yaml', svg: '.svg', orders: '-orders.yaml' };

/**
 * Views a worker holds beyond the one it is rendering, in steady work: while
 * every worker has this many, this thread makes a nation's files itself
 * (which takes it about as long as a worker takes for two); below, it hands
 * out views first. Making a view and handing it over costs this thread less
 * than a worker spends on the files, so the workers take most nations, and
 * this thread, which also makes every view, the GM's report and the turn's own
 * files, the rest.
 */
const AHEAD = 4;

/**
 * How many views each worker is given before this thread goes off to make
 * the GM's report, as a share of the nations: carried whole (reports.gm
 * limits set high), the GM's report takes this thread as long as about 40% of
 * the nations' files take a worker (both grow with the world), and the
 * workers must not run dry meanwhile. Every worker needs that much, however
 * many there are, unless they would then hold more than their share of all
 * the nations. A GM's page that links its bulk (the default beyond its
 * limits) is done sooner; this thread then makes files itself while the
 * workers' queues run down, so the loads still even out, at the cost of the
 * views waiting in those queues (within the turn's measured peak).
 */
const HEAD_START_SHARE = 0.4;

/**
 * Renders every nation of the job into the sink, each nation's files written
 * as soon as they are made, so memory holds a few reports at a time.
 * `beside` is this thread's other work (the GM's report): in a big campaign it
 * runs once the workers have a head start, so no core idles meanwhile.
 * Workers need a folder to write into; any other sink renders in this thread.
 */
export async function renderNations(job: NationJob, sink: FileSink, templates: ReportTemplates, beside: () => Promise<void> = () => Promise.resolve(), crew?: ReportCrew): Promise<void> {
  const threads = isFolderSink(sink) ? reportThreads(job.nations.length, job.before) : 1;
  const renderHere = async (nation: NationId) => {
    for (const [rel, content] of viewFiles(jobNationView(job, nation), job.campaign, templates, job.formats)) await sink.write(rel, content);
  };
  if (threads <= 1 || !isFolderSink(sink)) {
    crew?.dismiss();
    await beside();
    for (const nation of job.nations) await renderHere(nation);
    return;
  }

  const queue = job.nations.map((nation, claim) => ({ nation, claim }));
  const cancelled = new SharedArrayBuffer(4);
  const claims = new SharedArrayBuffer(4 * job.nations.length);
  // Posted to a worker, in order: at the end, this thread takes back those no worker has begun.
  const posted: { nation: NationId; claim: number }[] = [];
  // The first failure, in any thread, ends the work: the queue is emptied, the
  // workers drop the views they still hold, finish the files they are writing
  // and stop, and only then is the failure passed on (the caller removes the
  // folder they all write into).
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    queue.length = 0;
    Atomics.store(new Int32Array(cancelled), 0, 1);
  };
  const workerJob: WorkerJob = { campaign: job.campaign, templateDirs: job.templateDirs, ...(job.formats ? { formats: job.formats } : {}) };
  const hands = ReportCrew.hire(threads - 1, workerJob, sink, { cancelled, claims }, crew);
  const finished = Promise.all(hands.map((h) => h.finished.catch(fail)));
  const postTo = (hand: Hand) => {
    const next = queue.shift();
    if (next === undefined) return;
    hand.post(jobNationView(job, next.nation), next.claim);
    posted.push(next);
  };
  // Yields to the event loop, where the workers' "done" messages wait.
  const breathe = () => new Promise((resolve) => setImmediate(resolve));

  try {
    const headStart = Math.ceil(Math.min(queue.length * HEAD_START_SHARE, queue.length / threads));
    for (let i = 0; i < headStart; i++) for (const hand of hands) postTo(hand);
    await beside();
    while (queue.length > 0) {
      // Every worker stocked first: this thread makes a nation's files itself only while they all have enough in hand.
      const hungry = hands.find((h) => h.inHand < AHEAD);
      if (hungry) postTo(hungry);
      else await renderHere(queue.shift()!.nation);
      await breathe();
    }
    // Rather than wait for the workers' last views, this thread makes the files of those not yet begun,
    // the latest posted first (a worker takes its views in order), until the workers reach them.
    const claimed = new Int32Array(claims);
    for (let i = posted.length - 1; i >= 0 && !failure; i--) {
      const { nation, claim } = posted[i]!;
      if (Atomics.compareExchange(claimed, claim, UNCLAIMED, CLAIMED_HERE) !== UNCLAIMED) continue;
      await renderHere(nation);
      await breathe();
    }
  } catch (e) {
    fail(e);
  }
  for (const hand of hands) hand.stop();
  await finished;
  if (failure) throw failure.error;
}
