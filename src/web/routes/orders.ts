/**
 * The order form: pre-filled (the orders on file in the player's words, else the order sheet of the latest
 * report), checked as the player types by the mail's own judgement (src/mailroom/desk.ts), filed as a mail
 * with the token is, the receipt mailed too. Rolls are answered, letters written and work given up from
 * the same form (each adds a line); `wait` and the time zone are kept as the mail commands keep them.
 * Without JavaScript every button posts the form and the page comes back with the answer.
 */
import { nationsWithOrderFiles, orderFolderNames, planOrderFolder, type OrderFormat } from '../../campaign/order-folder.js';
import { decodeUtf8 } from '../../campaign/yaml-io.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Hono } from 'hono';
import jsyaml from 'js-yaml';
import { ordersDir } from '../../orders/pending.js';
import { canonicalTimeZone } from '../../campaign/time-zone.js';
import { fileDeskOrders, type DeskOptions } from '../../mailroom/desk.js';
import { localTime } from '../../schedule/deadline.js';
import { withCampaignLock } from '../../schedule/lock.js';
import { ordersAccepted } from '../../schedule/plan.js';
import { deadlineClock, deadlineFor } from '../../schedule/player-time.js';
import { setPlayerPreference } from '../../schedule/set-preference.js';
import type { CheckAnswer, CheckJob } from '../check-job.js';
import { CheckerBusy } from '../check-pool.js';
import { baseOf, checkFormToken, DeskRefusal, formOf, limit, nationSession, page, type DeskContext, type DeskEnv, type DeskParts } from '../context.js';
import { fromReceipt, receiptView, type ReceiptView } from '../receipt-view.js';
import { readTurnFiles } from '../stored-reports.js';
import { Lines } from '../views.js';

export function orderRoutes(app: Hono<DeskEnv>): void {
  app.get('/c/:slug/orders', async (c) => {
    const notice = NOTICES[c.req.query('done') ?? ''] ?? null;
    return orderPage(c, { notice });
  });

  app.post('/c/:slug/orders', async (c) => {
    const session = nationSession(c);
    const form = await formOf(c);
    checkFormToken(c, form);
    const text = form.text ?? '';
    const turn = formTurn(form);
    const action = form.action ?? 'check';
    if (action === 'file') {
      limit(c, 'filePerSession', session.id, 'sent orders');
      const desk = await deskOf(c);
      // Filing judges the sheet again under the lock, in this thread, against the state kept for filing.
      const { state } = await c.get('campaign').state();
      const filing = await withCampaignLock(desk.dir, { clock: desk.parts.clock, what: `orders of ${session.nation} (web desk)`, waitMs: desk.parts.lockWaitMs, timeZone: desk.timeZone }, () => fileDeskOrders(desk.dir, { nation: session.nation, text, state, ...(turn !== undefined ? { turn } : {}) }, desk.options));
      if (filing.decision.kind === 'file') return c.redirect(`${baseOf(c)}/orders?done=${filing.mailedTo.length ? 'filed' : 'filed-unmailed'}${filing.lettersLeftOut ? '-letters-left-out' : ''}`, 303);
      return orderPage(c, { text, receipt: receiptView(filing.decision, false), notice: 'Nothing was filed: see why below. Your earlier orders, if any, stand.' }, 409);
    }
    limit(c, 'checkPerSession', session.id, 'checked orders');
    const added = addLine(text, action, form);
    return orderPage(c, { text: added, receipt: await check(c, added, turn) });
  });

  // The live check: the receipt as a fragment, for the page's script.
  app.post('/c/:slug/orders/check', async (c) => {
    const session = nationSession(c);
    const form = await formOf(c);
    checkFormToken(c, form);
    limit(c, 'checkPerSession', session.id, 'checked orders');
    return c.html(c.get('parts').views.fragment('receipt', { receipt: await check(c, form.text ?? '', formTurn(form)) }));
  });

  app.post('/c/:slug/settings', async (c) => {
    const session = nationSession(c);
    const form = await formOf(c);
    checkFormToken(c, form);
    limit(c, 'filePerSession', session.id, 'changed settings');
    const parts = c.get('parts');
    const campaign = c.get('campaign');
    let request: Parameters<typeof setPlayerPreference>[2];
    if (form.setting === 'wait') request = { kind: 'wait', wait: form.wait === 'yes' };
    else if (form.setting === 'time-zone') {
      const word = (form.zone ?? '').trim().slice(0, 80);
      const zone = word === '' ? undefined : canonicalTimeZone(word);
      if (word !== '' && zone === undefined) throw new DeskRefusal(400, `"${word}" is not a time zone. Write one like Europe/Berlin or America/New_York, or leave the field empty for the campaign's own zone.`, 'Not a time zone');
      request = zone === undefined ? { kind: 'time-zone' } : { kind: 'time-zone', zone };
    } else throw new DeskRefusal(400, 'That setting is not one the desk knows.');
    const view = await campaign.view();
    const kept = await setPlayerPreference(campaign.dir, session.nation, request, { clock: parts.clock, note: 'on the web desk', lockWaitMs: parts.lockWaitMs });
    if (kept === undefined) throw new DeskRefusal(409, `The campaign's schedule has not started yet, so there is nowhere to keep this; ask the GM (${view.open.campaign.title}).`, 'Not kept');
    return c.redirect(`${baseOf(c)}/orders?done=${request.kind}`, 303);
  });
}

const NOTICES: Record<string, string> = {
  filed: 'Your orders are on file, as shown below. The receipt was mailed to your registered address.',
  'filed-unmailed': 'Your orders are on file, as shown below. Your nation has no address on file, so no receipt was mailed.',
  'filed-letters-left-out': "Your orders are on file, as shown below, without your newest letters: your nation has sent as many letters this season as it may, and a letter relayed at once cannot be taken back. The receipt mailed to your registered address says which were left out.",
  'filed-unmailed-letters-left-out': 'Your orders are on file, as shown below, without your newest letters: your nation has sent as many letters this season as it may, and a letter relayed at once cannot be taken back.',
  wait: 'Your choice about waiting for the deadline is kept.',
  'time-zone': 'Your time zone is kept: deadlines are shown on your clock too.',
};

/** A line added by one of the form's helpers (an answer, a letter, giving up work), or the text as it was. */
function addLine(text: string, action: string, form: Record<string, string>): string {
  const one = (s: string | undefined) => (s ?? '').replace(/[\r\n]+/g, ' ').trim();
  const append = (line: string) => `${text.replace(/\s+$/, '')}${text.trim() ? '\n' : ''}${line}\n`;
  if (action === 'add-answer' && one(form.answer)) {
    const fate = Number(form.fate ?? 0);
    return append(`answer ${one(form.answer)}${Number.isInteger(fate) && fate > 0 && fate <= 99 ? ` fate ${fate}` : ''}`);
  }
  if (action === 'add-letter' && one(form.to) && one(form.letter)) {
    return append(`press ${form.unsigned === 'yes' ? 'unsigned ' : ''}to ${one(form.to)}: ${one(form.letter)}`);
  }
  const abandon = /^abandon:(\d{1,6})$/.exec(action);
  if (abandon) {
    const lines = text.split('\n');
    const at = Number(abandon[1]) - 1;
    if (at >= 0 && at < lines.length && !/\babandon(?:ing)?\b/i.test(lines[at]!)) lines[at] = `${lines[at]!.replace(/\s+$/, '')} abandoning`;
    return lines.join('\n');
  }
  return text;
}

interface OrderDesk {
  parts: DeskParts;
  dir: string;
  timeZone: string;
  pendingTurn: number;
  accepts: boolean;
  deadline: string;
  /** What the mail's judgement needs besides the sheet and the state (the live check, check-job.ts). */
  judge: Omit<Extract<CheckJob, { kind: 'judge' }>, 'kind' | 'text' | 'turn'>;
  /** What filing needs (src/mailroom/desk.ts). */
  options: DeskOptions;
}

/** The campaign as the order form needs it: the state the pending turn starts from, the deadline, the tokens. */
async function deskOf(c: DeskContext): Promise<OrderDesk> {
  const session = nationSession(c);
  const parts = c.get('parts');
  const campaign = c.get('campaign');
  // The state itself is not read here: checks are answered by the checker (check-pool.ts).
  const view = await campaign.view();
  const runtime = await campaign.runtime();
  const secrets = await campaign.secrets();
  const pendingTurn = (view.latest ?? 0) + 1;
  const now = parts.clock.now();
  const accepts = runtime ? ordersAccepted(runtime, view.schedule) : () => true;
  const tz = view.schedule.timeZone;
  const clock = runtime ? deadlineClock(new Date(runtime.deadline), tz, view.open.file, runtime) : undefined;
  // Orders on file in any form (.yaml, .yml, .txt: order-folder.ts).
  const onFile = (await nationsWithOrderFiles(ordersDir(campaign.dir, pendingTurn), (id) => id === session.nation)).length > 0;
  const options: DeskOptions = {
    clock: parts.mailClock,
    secrets,
    log: parts.log,
    ...(parts.transport ? { transport: parts.transport } : {}),
    acceptsOrders: accepts,
    ...(runtime ? { retiredTokens: runtime.retiredTokens } : {}),
    ...(clock ? { deadlineClock: clock, deadline: localTime(new Date(runtime!.deadline), tz) } : {}),
  };
  return {
    parts,
    dir: campaign.dir,
    timeZone: tz,
    pendingTurn,
    accepts: accepts(pendingTurn, now),
    deadline: clock ? deadlineFor(clock, session.nation) : 'to be announced by the GM',
    judge: {
      dir: campaign.dir,
      nation: session.nation,
      token: secrets.token(session.nation),
      retired: runtime?.retiredTokens[session.nation] ?? [],
      onFile,
      late: !accepts(pendingTurn, now),
      address: view.open.file.nations[session.nation]?.email[0] ?? 'the web desk',
    },
    options,
  };
}

/** The turn the form was made for (its hidden field). */
function formTurn(form: Record<string, string>): number | undefined {
  return /^\d{1,6}$/.test(form.turn ?? '') ? Number(form.turn) : undefined;
}

/** What filing this text would do, as a receipt. */
async function check(c: DeskContext, text: string, turn: number | undefined): Promise<ReceiptView> {
  const desk = await deskOf(c);
  const answer = await checked(c, { kind: 'judge', ...desk.judge, text, ...(turn !== undefined ? { turn } : {}) });
  return receiptView(answer.decision, false);
}

/** The checker's answer; a checker too busy to take it is a page saying to try again. */
async function checked<K extends CheckJob['kind']>(c: DeskContext, job: Extract<CheckJob, { kind: K }>): Promise<Extract<CheckAnswer, { kind: K }>> {
  try {
    return await c.get('parts').checker.check<K>(c.get('campaign'), job);
  } catch (e) {
    if (e instanceof CheckerBusy) throw new DeskRefusal(503, 'The order checker is busy with many players\' orders just now, so yours were not checked (nothing was changed). Please try again in a moment.', 'The checker is busy');
    throw e;
  }
}

async function orderPage(c: DeskContext, shown: { text?: string; receipt?: ReceiptView; notice?: string | null }, status: 200 | 409 = 200) {
  const session = nationSession(c);
  const campaign = c.get('campaign');
  const desk = await deskOf(c);
  const view = await campaign.view();
  const runtime = await campaign.runtime();
  const nation = session.nation;
  const filed = await filedOrders(campaign.dir, desk.pendingTurn, nation);
  const latestFiles = view.latest !== undefined ? await readTurnFiles(campaign.dir, view.latest, [`${nation}-orders.yaml`, `${nation}.yaml`]) : new Map<string, Buffer>();
  const sheet = latestFiles.get(`${nation}-orders.yaml`)?.toString('utf8');
  const filedText = filed !== undefined && 'text' in filed ? filed.text : undefined;
  const text = shown.text ?? filedText ?? sheet ?? '';
  const onFile = filed === undefined ? null : 'clash' in filed ? CLASH : fromReceipt((await checked(c, { kind: 'on-file', dir: campaign.dir, nation, bytes: filed.bytes, format: filed.format })).receipt, 'On file.');
  const rolls = awaitingRolls(latestFiles.get(`${nation}.yaml`)?.toString('utf8'));
  const zone = runtime?.timeZones[nation] ?? view.open.file.nations[nation]?.timeZone ?? '';
  return page(
    c,
    'orders',
    'orders',
    {
      title: `Orders for turn ${desk.pendingTurn}`,
      turn: desk.pendingTurn,
      deadline: desk.deadline,
      open: desk.accepts,
      closed: desk.accepts ? null : `The deadline for turn ${desk.pendingTurn} has passed, so orders are no longer taken for it; nothing you send now is filed.`,
      notice: shown.notice ?? null,
      sheet: new Lines(text),
      prefilledFrom: shown.text !== undefined ? null : filedText !== undefined ? 'your orders on file' : sheet !== undefined ? 'the order sheet of your latest report' : null,
      receipt: shown.receipt ?? null,
      onFile,
      rolls,
      hasRolls: rolls.length > 0,
      early: view.schedule.early,
      waiting: runtime?.waits.some((w) => w.nation === nation && w.turn === desk.pendingTurn) ?? false,
      zone,
      scheduled: runtime !== undefined,
    },
    status,
  );
}

/** Two order files for one nation: none is read (campaign/order-folder.ts), as the page says. */
const CLASH: ReceiptView = {
  verdict: 'Your nation has two sets of orders on file (sent in two forms), and neither counts until one goes. Filing your orders here replaces both.',
  tone: 'refused',
  linesOf: null,
  accepted: [],
  problems: [],
  renown: null,
  fate: null,
};

type Filed = { bytes: Buffer; format: OrderFormat; text: string | undefined } | { clash: true };

/**
 * The nation's orders on file for the pending turn, found by the one rule of the order folder (.yaml, .yml
 * or .txt; a mail's .eml beside the sheet filed from it): the file, and the lines as the player wrote them.
 */
async function filedOrders(dir: string, turn: number, nation: string): Promise<Filed | undefined> {
  const folder = ordersDir(dir, turn);
  const plan = planOrderFolder(await orderFolderNames(folder), (id) => id === nation);
  if (plan.clashes.length > 0) return { clash: true };
  const file = plan.orders[0];
  if (file === undefined) return undefined;
  const bytes = await readFile(join(folder, file.name));
  return { bytes, format: file.format, text: file.format === 'text' ? decodeUtf8(bytes) : writtenLines(bytes) };
}

/** The lines of a sheet as the player wrote them (each filed order's `written`), when every order has them. */
function writtenLines(bytes: Buffer): string | undefined {
  try {
    const data = jsyaml.load(bytes.toString('utf8'), { schema: jsyaml.CORE_SCHEMA }) as { orders?: { line?: number; written?: string }[] } | null;
    const written = (data?.orders ?? []).filter((o) => typeof o.written === 'string');
    if (written.length > 0 && written.length === (data?.orders ?? []).length) {
      return `${written.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).map((o) => o.written).join('\n')}\n`;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The rolls the latest report asks the nation to answer, as choices for the form. */
function awaitingRolls(yaml: string | undefined): { title: string; prompt: string; choices: { value: string; label: string }[] }[] {
  if (yaml === undefined) return [];
  const data = jsyaml.load(yaml, { schema: jsyaml.CORE_SCHEMA }) as { awaiting?: { rolls?: { event: string; title: string; prompt?: string; choice?: boolean; options?: { id: string; text: string; need?: number; isDefault?: boolean }[] }[] } } | null;
  return (data?.awaiting?.rolls ?? []).map((r) => ({
    title: r.title,
    prompt: r.prompt ?? '',
    choices: r.choice
      ? (r.options ?? []).map((o) => ({ value: `${r.event} ${o.id}`, label: `${r.title}: ${o.text}${o.need !== undefined ? ` (a ${o.need} or more)` : ''}${o.isDefault ? ' — the default' : ''}` }))
      : [{ value: r.event, label: r.title }],
  }));
}
