/**
 * The reports as the turns stored them: the desk shows the files a nation was mailed, never a view made
 * again from the state, so the archive reads exactly as the mail did. A packed turn's files are read from
 * its archive (campaign/packed-reports.ts); the few most recently read are kept, as unpacking a big turn's
 * archive costs a moment.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { isPacked, packedReportsPath, readPackedReports } from '../campaign/packed-reports.js';
import { turnDirName } from '../campaign/store.js';

const PACKED_KEPT = 64;
const packedCache = new Map<string, Map<string, Buffer>>();

/** The named files of a turn's reports/ (those that exist), loose or packed. */
export async function readTurnFiles(campaignDir: string, turn: number, names: readonly string[]): Promise<Map<string, Buffer>> {
  const folder = join(campaignDir, 'turns', turnDirName(turn));
  const out = new Map<string, Buffer>();
  if (!isPacked(folder)) {
    await Promise.all(
      names.map(async (name) => {
        const bytes = await readFile(join(folder, 'reports', name)).catch(() => undefined);
        if (bytes !== undefined) out.set(name, bytes);
      }),
    );
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
  while (packedCache.size > PACKED_KEPT) packedCache.delete(packedCache.keys().next().value!);
  return read;
}

/** Whether a turn has a report for this name at all (loose or packed): the archive lists only those. */
export function turnFolderExists(campaignDir: string, turn: number): boolean {
  return existsSync(join(campaignDir, 'turns', turnDirName(turn)));
}

/** A stored HTML report taken apart for a desk page: the body's markup, and the hashes of its style blocks (for the CSP). */
export interface ReportParts {
  body: string;
  styleHashes: string[];
}

const STYLE = /<style[^>]*>([\s\S]*?)<\/style>/gi;

export function reportParts(html: string): ReportParts {
  const open = html.search(/<body[^>]*>/i);
  const start = open < 0 ? 0 : html.indexOf('>', open) + 1;
  const end = html.lastIndexOf('</body>');
  let body = html.slice(start, end < start ? html.length : end);
  // The head's stylesheet comes along (the desk's page has its own head): the report's look is kept.
  const headStyles = [...html.slice(0, start).matchAll(STYLE)].map((m) => m[0]);
  body = headStyles.join('\n') + body;
  const styleHashes = [...body.matchAll(STYLE)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  return { body, styleHashes: [...new Set(styleHashes)] };
}

/** The first map of a stored HTML report (the GM's world map on the status screen). */
export function firstMap(html: string): string | undefined {
  return /<svg[^>]*class="fatecraft-map"[\s\S]*?<\/svg>/.exec(html)?.[0];
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
export function placesOf(yamlText: string): PlaceRow[] {
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
