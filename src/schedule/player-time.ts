import type { CampaignFile } from '../campaign/schema.js';
import { localIso, localTime } from './deadline.js';
import type { Runtime } from './runtime.js';

/**
 * Deadlines in each player's own time zone, beside the campaign's: "Fri 28 Nov 2025 18:00 UTC (19:00 in
 * your zone, Europe/Berlin)". A player's zone is the one they set by mail ("timezone Europe/Berlin", kept in
 * runtime.yaml's timeZones) or else the one the GM wrote in campaign.yaml (nations.<id>.timeZone).
 */

/** A deadline and whose clocks to show it on. */
export interface DeadlineClock {
  at: Date;
  /** The campaign's zone (schedule.timeZone). */
  timeZone: string;
  /** Each nation's own zone, where it has one. */
  zones: Readonly<Record<string, string>>;
}

/** Every nation's own zone: set by mail over campaign.yaml's. */
export function playerZones(file: Pick<CampaignFile, 'nations'>, runtime: Pick<Runtime, 'timeZones'> | undefined): Record<string, string> {
  const zones: Record<string, string> = {};
  for (const [id, def] of Object.entries(file.nations)) if (def.timeZone !== undefined) zones[id] = def.timeZone;
  return { ...zones, ...(runtime?.timeZones ?? {}) };
}

/**
 * "19:00 in your zone, Europe/Berlin", with the day when it is another day there ("Sat 29 Nov 03:00 in your
 * zone, Asia/Tokyo"); undefined when the player's clock reads the same as the campaign's.
 */
export function yourZoneTime(at: Date, campaignZone: string, zone: string): string | undefined {
  const theirs = localIso(at, zone);
  const ours = localIso(at, campaignZone);
  if (theirs === ours) return undefined;
  // localTime: "Sat 29 Nov 2025 03:00 JST"
  const [weekday, day, month, , time] = localTime(at, zone).split(' ');
  const sameDay = theirs.slice(0, 10) === ours.slice(0, 10);
  return `${sameDay ? '' : `${weekday} ${day} ${month} `}${time} in your zone, ${zone}`;
}

/** The deadline as one nation's player reads it: the campaign's clock, and theirs beside it. */
export function deadlineFor(clock: DeadlineClock, nation: string | undefined): string {
  const text = localTime(clock.at, clock.timeZone);
  const zone = nation !== undefined ? clock.zones[nation] : undefined;
  const yours = zone !== undefined ? yourZoneTime(clock.at, clock.timeZone, zone) : undefined;
  return yours ? `${text} (${yours})` : text;
}

/** The deadline text of each nation whose player reads it on another clock (the others read `localTime`). */
export function deadlinesByNation(clock: DeadlineClock): Record<string, string> {
  const out: Record<string, string> = {};
  for (const nation of Object.keys(clock.zones).sort()) {
    const text = deadlineFor(clock, nation);
    if (text !== localTime(clock.at, clock.timeZone)) out[nation] = text;
  }
  return out;
}

/** The deadline at `at` on the campaign's clock and on each player's own. */
export function deadlineClock(at: Date, timeZone: string, file: Pick<CampaignFile, 'nations'>, runtime: Pick<Runtime, 'timeZones'> | undefined): DeadlineClock {
  return { at, timeZone, zones: playerZones(file, runtime) };
}
