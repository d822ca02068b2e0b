/**
 * A nation's reports: this turn's and every earlier one (packed turns included), as the turns stored them,
 * the map with its zoom (static/desk.js; scrolling without it) and a text list of what is where. The nation
 * is the session's; the address names only a turn, looked up among the resolved turns.
 */
import type { Hono } from 'hono';
import { seasonOf } from '../../core/phases/upkeep.js';
import { baseOf, nationSession, notFound, page, pageWithReport, type DeskContext, type DeskEnv } from '../context.js';
import { readTurnFiles, shownReport } from '../stored-reports.js';
import { Lines } from '../views.js';

export function reportRoutes(app: Hono<DeskEnv>): void {
  app.get('/c/:slug/report', async (c) => {
    nationSession(c);
    const view = await c.get('campaign').view();
    if (view.latest === undefined) return page(c, 'message', 'report', { title: 'No report yet', heading: 'No report yet', text: 'The campaign has not started: your first report comes with the start of the game.' });
    return reportPage(c, view.latest);
  });

  app.get('/c/:slug/turns', async (c) => {
    const session = nationSession(c);
    const view = await c.get('campaign').view();
    const calendar = view.open.campaign.calendar;
    const turns = [...view.turns].reverse().map((turn) => {
      const { season, year } = seasonOf(calendar, turn);
      return { turn, label: turn === 0 ? 'The starting position' : `Turn ${turn}`, when: `${season} of ${year}`, latest: turn === view.latest };
    });
    return page(c, 'archive', 'archive', { title: 'Earlier reports', nationName: view.open.campaign.nations[session.nation]?.name ?? session.nation, turns });
  });

  app.get('/c/:slug/turns/:turn', async (c) => reportPage(c, await turnOf(c)));

  app.get('/c/:slug/turns/:turn/text', async (c) => {
    const session = nationSession(c);
    const turn = await turnOf(c);
    const files = await readTurnFiles(c.get('campaign').dir, turn, [`${session.nation}.txt`]);
    const text = files.get(`${session.nation}.txt`);
    if (text === undefined) throw notFound();
    return c.body(new Uint8Array(text), 200, { 'Content-Type': 'text/plain; charset=utf-8' });
  });
}

/** The turn the address names, when it is a resolved one. */
async function turnOf(c: DeskContext): Promise<number> {
  nationSession(c);
  const raw = c.req.param('turn') ?? '';
  if (!/^\d{1,6}$/.test(raw)) throw notFound();
  const turn = Number(raw);
  const view = await c.get('campaign').view();
  if (!view.turns.includes(turn)) throw notFound();
  return turn;
}

async function reportPage(c: DeskContext, turn: number) {
  const session = nationSession(c);
  const campaign = c.get('campaign');
  const view = await campaign.view();
  const nation = session.nation;
  const stored = await shownReport(campaign.dir, turn, nation);
  if (stored === undefined) throw notFound();
  const { parts } = stored;
  if (parts) c.set('styleHashes', parts.styleHashes);
  const index = view.turns.indexOf(turn);
  const { season, year } = seasonOf(view.open.campaign.calendar, turn);
  const shown = {
    title: `${turn === 0 ? 'Starting position' : `Turn ${turn}`} — ${view.open.campaign.nations[nation]?.name ?? nation}`,
    turn,
    when: `${season} of ${year}`,
    latest: turn === view.latest,
    previous: index > 0 ? view.turns[index - 1]! : null,
    next: index >= 0 && index < view.turns.length - 1 ? view.turns[index + 1]! : null,
    textLink: stored.hasText ? `${baseOf(c)}/turns/${turn}/text` : null,
    places: stored.places,
    plain: stored.plain !== undefined ? new Lines(stored.plain) : null,
  };
  const here = turn === view.latest ? 'report' : 'archive';
  return parts ? pageWithReport(c, 'report', here, shown, parts.body) : page(c, 'report', here, { ...shown, report: null });
}
