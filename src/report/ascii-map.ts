import type { MapModel } from './map-model.js';

/**
 * A compact map for plain-text reports. Each hex is two characters: what
 * stands there, then its terrain. Columns alternate between two lines, so odd
 * columns sit half a hex lower, as on the real (odd-q) map:
 *
 *         0     2     4
 *            1     3
 *    0   A.    :~    ..
 *           a.    ..
 *
 * First character: a nation's letter in upper case for its settlement, lower
 * case for its units; "*" units of several nations; "!" a settlement with
 * foreign units in it; ":" out of sight; blank for nothing seen.
 */
export function renderAsciiMap(model: MapModel): string[] {
  const { window, rows, legend } = model.grid;
  const letter = new Map(model.nations.map((n) => [n.id, n.letter]));
  const settlementAt = new Map(model.settlements.map((s) => [s.hex, s.nation]));
  const unitsAt = new Map<string, Set<string>>();
  for (const u of model.units) unitsAt.set(u.hex, (unitsAt.get(u.hex) ?? new Set()).add(u.nation));

  const feature = (hex: string): string => {
    if (model.seen !== null && !model.seen.has(hex) && !settlementAt.has(hex) && !unitsAt.has(hex)) return ':';
    const owner = settlementAt.get(hex);
    const nations = unitsAt.get(hex);
    if (owner !== undefined) {
      if (nations && [...nations].some((n) => n !== owner)) return '!';
      return (letter.get(owner) ?? '?').toUpperCase();
    }
    if (nations) return nations.size > 1 ? '*' : (letter.get([...nations][0] ?? '') ?? '?').toLowerCase();
    return ' ';
  };

  const labelWidth = String(window.row + window.rows - 1).length + 2;
  const pad = ' '.repeat(labelWidth);
  const xOf = (c: number) => labelWidth + 3 * c;
  const lines: string[] = [];
  const header = (parity: number) => {
    let line = pad;
    for (let c = 0; c < window.cols; c++) {
      if ((window.col + c) % 2 !== parity) continue;
      line = line.padEnd(xOf(c)) + String((window.col + c) % 100).padStart(2);
    }
    return line.trimEnd();
  };
  lines.push(header(0), header(1));
  rows.forEach((terrain, r) => {
    const row = window.row + r;
    for (const parity of [0, 1]) {
      let line = parity === 0 ? `${String(row).padStart(labelWidth - 2)}  ` : pad;
      for (let c = 0; c < window.cols; c++) {
        const col = window.col + c;
        if (col % 2 !== parity) continue;
        line = line.padEnd(xOf(c)) + feature(`${col},${row}`) + (terrain[c] ?? '?');
      }
      lines.push(line.trimEnd());
    }
  });
  lines.push('');
  lines.push(`Terrain (2nd character): ${Object.entries(legend).map(([ch, t]) => `${ch} ${t}`).join(', ')}`);
  lines.push(`Nations (1st character): ${model.nations.map((n) => `${n.letter}/${n.letter.toLowerCase()} ${n.name}`).join(', ')} — capital letter: settlement, small: units`);
  lines.push(`Also: * units of several nations, ! settlement with foreign units${model.seen === null ? '' : ', : out of sight'}`);
  return lines;
}
