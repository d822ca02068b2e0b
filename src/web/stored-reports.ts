/**
 * The reports as the turns stored them: the desk shows the files a nation was mailed, never a view made
 * again from the state, so the archive reads exactly as the mail did. A packed turn's files are read from
 * its archive (campaign/packed-reports.ts); the few most recently read are kept, as unpacking a big turn's
 * archive costs a moment.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { isPacked, packedReportsPath, readPackedReports } from '../campaign/packed-reports.js';
import { turnDirName } from '../campaign/store.js';
import { KeptMap } from '../core/kept-map.js';

const packedCache = new KeptMap<string, Map<string, Buffer>>({ entries: 64 });

/** The named files of a turn's reports/ (those that exist), loose or packed. */
export async function readTurnFiles(campaignDir: string, turn: number, names: readonly string[]): Promise<Map<string, Buffer>> {
  const folder = join(campaignDir, 'turns', turnDirName(turn));
  const out = new Map<string, Buffer>();
  if (!isPacked(folder)) {
    // A report is a few hundred kilobytes at most, read from the page cache: at once, not through the thread pool.
    for (const name of names) {
      try {
        out.set(name, readFileSync(join(folder, 'reports', name)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    return out;
  }
  const archive = packedReportsPath(folder);
  const s = await stat(archive);
  const key = `${archive}|${s.mtimeMs}|${s.size}|${names.join('/')}`;
  const cached = packedCache.get(key);
  if (cached) return cached;
  const wanted = new Set(names);
  const read = await readPackedReports(folder, (name) => wanted.has(name));
  packedCache.set(key, read);
  return read;
}

/** A nation's stored report of one turn as its page shows it (routes/reports.ts). */
export interface ShownReport {
  /** The HTML report taken apart, when there is one. */
  parts: ReportParts | undefined;
  /** The text report, when there is no HTML one. */
  plain: string | undefined;
  hasText: boolean;
  /** What is where, from the machine-readable report (none without one). */
  places: PlaceRow[];
}

/**
 * Report pages kept, weighed in bytes (a 1,000-nation turn's HTML reports are about 120 MB: the busiest few
 * hundred fit in 64 MB); one shown again goes to the back of the line to be forgotten. The newest stays
 * however big: it is the page a player is reading now.
 */
const shownCache = new KeptMap<string, ShownReport>({ weight: 64 * 1024 * 1024, refresh: true, keepNewest: true });
/** The key kept for each (turn folder, nation): a newer version of its files replaces the older at once. */
const shownKeyOf = new Map<string, string>();

/**
 * The version of a nation's report files: each file's change time, size and inode (a re-render writes new
 * files, atomically, so a new inode), or the packed archive's. Looked at on every page: a stat costs
 * microseconds, reading and taking apart a report a millisecond of the desk's one thread.
 */
function reportFilesVersion(folder: string, names: readonly string[]): string {
  const of = (path: string) => {
    const s = statSync(path, { throwIfNoEntry: false });
    return s ? `${s.mtimeMs}:${s.ctimeMs}:${s.size}:${s.ino}` : '-';
  };
  return isPacked(folder) ? `packed:${of(packedReportsPath(folder))}` : names.map((name) => of(join(folder, 'reports', name))).join('|');
}

/**
 * A nation's report of a turn, read and taken apart once and kept by the nation and its files' version: a
 * page asked for again costs a few stats, and a re-rendered report or a new turn is read afresh. The key
 * names the nation whose files were read, so one nation's page is never another's.
 */
export async function shownReport(campaignDir: string, turn: number, nation: string): Promise<ShownReport | undefined> {
  const folder = join(campaignDir, 'turns', turnDirName(turn));
  const names = [`${nation}.html`, `${nation}.yaml`, `${nation}.txt`] as const;
  const slot = `${folder}\u0000${nation}`;
  const key = `${slot}\u0000${reportFilesVersion(folder, names)}`;
  const kept = shownCache.get(key);
  if (kept) return kept;
  const files = await readTurnFiles(campaignDir, turn, names);
  const [html, yaml, text] = names.map((name) => files.get(name));
  if (html === undefined && text === undefined) return undefined;
  const parts = html !== undefined ? reportParts(html) : undefined;
  const shown: ShownReport = { parts, plain: parts ? undefined : text!.toString('utf8'), hasText: text !== undefined, places: yaml !== undefined ? readPlaces(yaml.toString('utf8')) : [] };
  const older = shownKeyOf.get(slot);
  if (older !== undefined) shownCache.delete(older);
  shownKeyOf.set(slot, key);
  shownCache.set(key, shown, (parts?.body.length ?? 0) + (shown.plain?.length ?? 0));
  return shown;
}

/**
 * A stored HTML report taken apart for a desk page: its body's bytes (the head's style blocks put in front,
 * so the report keeps its look), and the hashes of its style blocks for the content security policy. The
 * bytes are spliced into the page as they are: a report is never decoded and encoded again.
 */
export interface ReportParts {
  body: Buffer;
  styleHashes: string[];
}

const OPEN_BODY = Buffer.from('<body');
const CLOSE_BODY = Buffer.from('</body>');
const OPEN_STYLE = Buffer.from('<style');
const CLOSE_STYLE = Buffer.from('</style>');

/** Each <style>…</style> between `from` and `to`: where the element is, and the hash of its content (its bytes, as CSP hashes them). */
function styleBlocks(html: Buffer, from: number, to: number): { start: number; end: number; hash: string }[] {
  const out: { start: number; end: number; hash: string }[] = [];
  for (let at = html.indexOf(OPEN_STYLE, from); at >= 0 && at < to; at = html.indexOf(OPEN_STYLE, at + 1)) {
    const open = html.indexOf(0x3e, at); // '>'
    const close = html.indexOf(CLOSE_STYLE, open);
    if (open < 0 || close < 0 || close > to) break;
    out.push({ start: at, end: close + CLOSE_STYLE.length, hash: `'sha256-${createHash('sha256').update(html.subarray(open + 1, close)).digest('base64')}'` });
    at = close;
  }
  return out;
}

export function reportParts(html: Buffer): ReportParts {
  const bodyTag = html.indexOf(OPEN_BODY);
  const start = bodyTag < 0 ? 0 : html.indexOf(0x3e, bodyTag) + 1;
  const closing = html.lastIndexOf(CLOSE_BODY);
  const end = closing < start ? html.length : closing;
  const head = styleBlocks(html, 0, start);
  const inBody = styleBlocks(html, start, end);
  const body = head.length ? Buffer.concat([...head.map((b) => html.subarray(b.start, b.end)), Buffer.from('\n'), html.subarray(start, end)]) : html.subarray(start, end);
  return { body, styleHashes: [...new Set([...head, ...inBody].map((b) => b.hash))] };
}

/** The first map of a stored HTML report (the GM's world map on the status screen), with its style blocks' hashes. */
export function firstMap(html: Buffer): ReportParts | undefined {
  const at = html.indexOf('class="fatecraft-map"');
  const start = at < 0 ? -1 : html.lastIndexOf('<svg', at);
  const end = start < 0 ? -1 : html.indexOf('</svg>', start);
  if (start < 0 || end < 0) return undefined;
  return { body: html.subarray(start, end + '</svg>'.length), styleHashes: styleBlocks(html, start, end).map((b) => b.hash) };
}

/** One hex and what the nation's report says is there, for the text list beside the map. */
export interface PlaceRow {
  hex: string;
  things: string[];
}

interface NationData {
  nation?: { id?: string };
  unitTypes?: Record<string, { name?: string }>;
  units?: { id: string; name?: string; type?: string; hex?: string; health?: string }[];
  settlements?: { name?: string; level?: string; hex?: string }[];
  externals?: { name?: string; hex?: string }[];
  projects?: { what?: string; at?: string; turnsLeft?: number }[];
  sight?: {
    units?: { name?: string; nation?: string; typeName?: string; hex?: string; health?: string }[];
    settlements?: { name?: string; nation?: string; level?: string; hex?: string }[];
    externals?: { name?: string; nation?: string; hex?: string }[];
    resources?: { hex?: string; kind?: string; name?: string }[];
  };
  nations?: { id: string; name: string }[];
  otherNations?: Record<string, string>;
}

/** What is where, from the nation's own machine-readable report (`<nation>.yaml`): hex by hex, column then row. */
function readPlaces(yamlText: string): PlaceRow[] {
  const data = (jsyaml.load(yamlText, { schema: jsyaml.CORE_SCHEMA }) ?? {}) as NationData;
  const nationName = (id: string | undefined) => (id === undefined ? 'another nation' : (data.nations?.find((n) => n.id === id)?.name ?? data.otherNations?.[id] ?? id));
  const rows = new Map<string, string[]>();
  const add = (hex: string | undefined, text: string) => {
    if (hex === undefined) return;
    const list = rows.get(hex) ?? [];
    list.push(text);
    rows.set(hex, list);
  };
  for (const u of data.units ?? []) add(u.hex, `your ${data.unitTypes?.[u.type ?? '']?.name ?? u.type ?? 'unit'}${u.name ? ` '${u.name}'` : ''} (${u.id}), ${u.health ?? 'healthy'}`);
  for (const s of data.settlements ?? []) add(s.hex, `your ${s.level ?? 'settlement'} ${s.name ?? ''}`.trim());
  for (const e of data.externals ?? []) add(e.hex, `your ${e.name ?? 'structure'}`);
  for (const p of data.projects ?? []) add(p.at, `your work: ${p.what ?? 'a build'}${p.turnsLeft !== undefined ? `, ${p.turnsLeft} turn${p.turnsLeft === 1 ? '' : 's'} left` : ''}`);
  for (const u of data.sight?.units ?? []) add(u.hex, `${u.typeName ?? 'a unit'}${u.name ? ` '${u.name}'` : ''} of ${nationName(u.nation)}, ${u.health ?? 'healthy'}`);
  for (const s of data.sight?.settlements ?? []) add(s.hex, `${s.level ?? 'settlement'} ${s.name ?? ''} of ${nationName(s.nation)}`.replace(/\s+/g, ' '));
  for (const e of data.sight?.externals ?? []) add(e.hex, `${e.name ?? 'a structure'} held by ${nationName(e.nation)}`);
  for (const r of data.sight?.resources ?? []) add(r.hex, `${r.name ?? r.kind ?? 'a resource'}${r.kind && r.name ? ` (${r.kind})` : ''}`);
  const key = (hex: string) => hex.split(',').map(Number);
  return [...rows.entries()]
    .sort(([a], [b]) => {
      const [ac, ar] = key(a);
      const [bc, br] = key(b);
      return (ac! - bc!) || (ar! - br!);
    })
    .map(([hex, things]) => ({ hex, things }));
}
