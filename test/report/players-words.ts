import type { GameState } from '../../src/core/state.js';

/**
 * What players' text must not hold (issue 34, "Words"): an internal id where a
 * name belongs, a path of the GM's folders, "1 <plural>". An id may stand only
 * as the handle orders name a thing by, in parentheses right after its name
 * ("Marines 'Iron Guard' (argenta-1)", "Argentum (argentum)", "Duchy of
 * Argenta (argenta)"), and anywhere in a line that quotes the player's own
 * order ("line 7: move argenta-8 to 6,4").
 */
export interface KnownIds {
  /** Unit id → its name, when it has one. */
  units: Map<string, string | undefined>;
  /** Settlement id → name. */
  settlements: Map<string, string>;
  /** Nation id → name. */
  nations: Map<string, string>;
  /** Build and external structure ids (b12, x3): never a player's to read. */
  others: Set<string>;
  /** The unit types' names, lower case ("marines", "slave levy"): a unit's name is quoted only right after one. */
  unitTypes: Set<string>;
}

export function knownIds(states: readonly GameState[], nations: Readonly<Record<string, { name: string; unitTypes?: Readonly<Record<string, { name: string }>> }>>): KnownIds {
  const ids: KnownIds = { units: new Map(), settlements: new Map(), nations: new Map(), others: new Set(), unitTypes: new Set() };
  for (const [id, n] of Object.entries(nations)) {
    ids.nations.set(id, n.name);
    for (const t of Object.values(n.unitTypes ?? {})) ids.unitTypes.add(t.name.toLowerCase());
  }
  for (const s of states) {
    for (const u of Object.values(s.units)) ids.units.set(u.id, u.name);
    for (const t of Object.values(s.settlements)) ids.settlements.set(t.id, t.name);
    for (const e of Object.values(s.externals)) ids.others.add(e.id);
    for (const b of s.builds) ids.others.add(b.id);
  }
  return ids;
}

/** A line that quotes what the player wrote: the receipt's and the report's "line N: <order>". */
const QUOTES_ORDER = /^\s*(?:- )?(?:line \d+|-): /;

/** A folder of the GM's (docs/, turns/, orders/…), an absolute path, a doc's or a campaign file's name. */
const PATH = /\b(?:docs|turns|orders|mail|reports|templates|campaigns|previews|out)\/|(?:^|\s)\/[\w.-]+\/|\b[\w-]+\.md\b|\b(?:campaign|runtime|state|events|actions)\.yaml\b/;

/** Words ending in "s" that are singular. */
const SINGULAR_S = new Set(['bonus', 'class', 'plus', 'pass', 'grass', 'moss', 'fortress', 'success', 'process', 'status', 'was', 'is', 'has', 'its', 'this', 'across', 'less', 'yes', 'news', 'glass', 'mass']);

/** What is wrong with one text a player reads, a line each: "<what>: <line>". */
export function wordProblems(raw: string, ids: KnownIds): string[] {
  // An HTML page's text has runs of blanks where its tags were.
  const text = raw.replace(/[ \t]+/g, ' ');
  const problems: string[] = [];
  const names = [...ids.units.keys(), ...ids.settlements.keys(), ...ids.nations.keys(), ...ids.others].sort((a, b) => b.length - a.length);
  const idPattern = new RegExp(`(?<![\\w'-])(${names.map((n) => n.replace(/[-]/g, '\\-')).join('|')})(?![\\w-]|\\.\\w)`, 'g');
  const unitNames = [...new Set([...ids.units.values()].filter((n): n is string => !!n))];
  for (const line of text.split('\n')) {
    if (QUOTES_ORDER.test(line)) continue;
    for (const m of line.matchAll(idPattern)) {
      const id = m[1]!;
      const before = line.slice(0, m.index);
      const after = line.slice(m.index + id.length);
      const handle = before.endsWith(' (') && after.startsWith(')');
      let ok = false;
      const unitName = ids.units.get(id);
      if (ids.units.has(id)) ok = handle && (before.endsWith("' (") || (unitName !== undefined && before.endsWith(`${unitName} (`)));
      else if (ids.settlements.has(id)) ok = handle && before.endsWith(`${ids.settlements.get(id)} (`);
      else if (ids.nations.has(id)) ok = (handle && before.endsWith(`${ids.nations.get(id)} (`)) || /^[a-z]+$/.test(id) && ENGLISH.has(id);
      if (!ok) problems.push(`id "${id}": ${line.trim()}`);
    }
    if (PATH.test(line)) problems.push(`path: ${line.trim()}`);
    // A unit's name as written; in quotes only right after its type ("Marines 'Iron Guard'"), where they mark
    // where the type ends and the name begins — never a name that says its type ("'1st Slave Levy'").
    if (line.includes("'")) {
      for (const name of unitNames) {
        for (let at = line.indexOf(`'${name}'`); at >= 0; at = line.indexOf(`'${name}'`, at + 1)) {
          const type = /([\w][\w ]*?) $/.exec(line.slice(0, at))?.[1]?.toLowerCase() ?? '';
          const typed = [...ids.unitTypes].some((t) => type.endsWith(t) && !saysType(name, t));
          if (!typed) problems.push(`quoted name "${name}": ${line.trim()}`);
        }
      }
    }
    for (const m of line.matchAll(/(?<![\d.,+-])\b1 ([a-z]+s)\b/g)) if (!SINGULAR_S.has(m[1]!)) problems.push(`"1 ${m[1]}": ${line.trim()}`);
  }
  return problems;
}

/** Nation ids that are English words ("free", the demo's rebels): as words they are words. */
const ENGLISH = new Set(['free']);

/** As src/core/unit-name.ts: a name that starts or ends with its type's name. */
const saysType = (name: string, type: string) => name.toLowerCase().startsWith(`${type} `) || name.toLowerCase().endsWith(` ${type}`);
