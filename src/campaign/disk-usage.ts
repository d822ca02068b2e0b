import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** A campaign folder's bytes, by part: what the GM keeps, backs up and sees grow turn by turn. */
export interface DiskUsage {
  total: number;
  /** turns/: every resolved turn's state, events and reports. */
  turns: number;
  /** orders/: the orders filed for each turn. */
  orders: number;
  /** mail/: the ledger, the queue and the processed messages. */
  mail: number;
  /** Everything else: campaign.yaml, runtime.yaml, the GM's own files. */
  other: number;
}

/**
 * The bytes of the files under `dir` (symbolic links are counted as links, never followed). A file
 * with several names (a turn's orders, linked while orders/NNNN lets them go; a turn and the one a
 * rerun superseded sharing an order file) is counted once, under the first name met.
 */
export async function campaignDiskUsage(dir: string): Promise<DiskUsage> {
  const usage: DiskUsage = { total: 0, turns: 0, orders: 0, mail: 0, other: 0 };
  const seen = new Set<string>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const bytes = await bytesUnder(join(dir, entry.name), seen);
    const part = entry.isDirectory() && (entry.name === 'turns' || entry.name === 'orders' || entry.name === 'mail') ? entry.name : 'other';
    usage[part] += bytes;
    usage.total += bytes;
  }
  return usage;
}

async function bytesUnder(path: string, seen: Set<string>): Promise<number> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat) return 0; // gone while we looked (a tick's temporary file)
  if (!stat.isDirectory()) {
    if (stat.nlink <= 1) return stat.size;
    const id = `${stat.dev}:${stat.ino}`;
    if (seen.has(id)) return 0;
    seen.add(id);
    return stat.size;
  }
  let sum = 0;
  const names = await readdir(path).catch(() => [] as string[]);
  for (const name of names) sum += await bytesUnder(join(path, name), seen);
  return sum;
}

/** 580977666 → "581.0 MB": decimal units, as `du --si` and file managers show them. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
