import type { Effect } from './types.js';

/** An effect in a few words, for a goal's reward in reports ("a new Marines", "unlocks musketeers"). */
export function describeEffect(e: Effect): string {
  switch (e.kind) {
    case 'renown':
    case 'fate':
      return `${e.amount > 0 ? '+' : ''}${e.amount} ${e.kind === 'renown' ? 'Renown' : 'Fate'}`;
    case 'prosperity':
    case 'happiness':
      return `${e.amount > 0 ? '+' : ''}${e.amount} ${e.kind === 'prosperity' ? 'Prosperity' : 'Happiness'}`;
    case 'unit_gained':
      return `a new ${e.unitType ?? `${e.class ?? ''} unit`.trim()}${e.name ? ` "${e.name}"` : ''}`;
    case 'unit_lost':
      return `a ${e.class ?? ''} unit lost`.replace('  ', ' ');
    case 'unit_bloodied':
      return `a ${e.class ?? ''} unit bloodied`.replace('  ', ' ');
    case 'structure_destroyed':
      return `${e.structure ?? 'a structure'} destroyed`;
    case 'battlement_damaged':
      return 'a battlement damaged';
    case 'battlement_destroyed':
      return 'a battlement destroyed';
    case 'resource_revealed':
      return `a hidden ${e.resourceKind ?? 'resource'} revealed`;
    case 'unlock':
      return `unlocks ${[e.unitType, e.structure].filter(Boolean).join(' and ')}`;
    case 'revolt':
      return 'a revolt';
    case 'civil_war':
      return `a civil war (${e.into} breaks away)`;
    case 'follow_up':
      return `"${e.event}" in ${e.in} turn${e.in === 1 ? '' : 's'}`;
    case 'task':
      return `the task "${e.task}"`;
    case 'message':
      return 'a message';
    case 'aspect':
      return e.boost ? `the boost "${e.name}"` : `the aspect "${e.name}"${e.free ? ` with ${e.free} free invoke${e.free === 1 ? '' : 's'}` : ''}${e.helps ? `, helping ${e.helps}` : e.hinders ? `, hindering ${e.hinders}` : ''}`;
    case 'compel':
      return `a compel of "${e.aspect}"`;
  }
}
