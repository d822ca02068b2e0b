import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { FileWrite } from './journal.js';
import { turnDirName } from './turn-folders.js';

/**
 * A story the GM's operations tell in the next reports (a civil war, a seat taken by a new player): one-off
 * events (docs/events.md, "The GM's hand") added to the pending turn's `_gm.yaml`, as a write for the
 * journal, so it lands with the operation's other files or not at all. Comments and the GM's own actions in
 * the file are kept.
 */
export async function storyWrite(dir: string, turn: number, events: Record<string, unknown>[]): Promise<FileWrite> {
  const path = join('orders', turnDirName(turn), '_gm.yaml');
  const file = join(dir, path);
  const doc = existsSync(file) ? parseDocument(await readFile(file, 'utf8')) : parseDocument(`turn: ${turn}\nactions: []\n`);
  if (!isMap(doc.contents)) doc.contents = doc.createNode({ turn, actions: [] }) as never;
  const actions = doc.get('actions');
  if (isSeq(actions)) for (const e of events) actions.add(doc.createNode(e));
  else doc.set('actions', doc.createNode(events));
  return { path, content: doc.toString() };
}
