/**
 * Durations as people write them in campaign.yaml and on the command line:
 * "48h", "90m", "2d", "1w", "1d12h", "0". Whole units only, largest first.
 */
const UNITS: Record<string, number> = { w: 7 * 86_400_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };
const ORDER = ['w', 'd', 'h', 'm', 's'];

export const DURATION_EXAMPLE = 'write it like "48h", "30m", "2d", "1w" or "1d12h"';

/** Milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim().toLowerCase();
  if (s === '0') return 0;
  if (!/^(\d+[wdhms])+$/.test(s)) return undefined;
  let total = 0;
  let last = -1;
  for (const [, n, unit] of s.matchAll(/(\d+)([wdhms])/g)) {
    const rank = ORDER.indexOf(unit!);
    if (rank <= last) return undefined; // "1h2d" or "1h1h"
    last = rank;
    total += Number(n) * UNITS[unit!]!;
  }
  return total;
}

/** The shortest exact text for a duration: 176400000 → "2d1h". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0';
  let rest = Math.abs(ms);
  let out = '';
  for (const unit of ORDER) {
    const size = UNITS[unit]!;
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * size;
  }
  return (ms < 0 ? '-' : '') + (out || '0s');
}

/** A human "time left": "2d 4h 13m", "45m", "under a minute". */
export function timeLeftText(ms: number): string {
  if (ms <= 0) return 'passed';
  if (ms < 60_000) return 'under a minute';
  const d = Math.floor(ms / 86_400_000);
  const h = Math.floor((ms % 86_400_000) / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  return [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : ''].filter(Boolean).join(' ');
}
