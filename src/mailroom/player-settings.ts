import type { NationId } from '../core/ids.js';
import { deadlineFor, type DeadlineClock } from '../schedule/player-time.js';
import type { PlayerPreference } from '../schedule/preferences.js';
import type { CommandFacts } from './compose.js';
import type { Decision } from './decide.js';
import type { Mailroom } from './room.js';

/**
 * What a player sets about their own game by mail, as one fetch run handles it: "timezone <zone>" and
 * "wait" are kept where the schedule keeps them (recordPreference: runtime.yaml), or the GM is told when
 * nothing keeps them; and every deadline an answer gives is shown on the player's clock beside the
 * campaign's, including a zone set earlier in the same run.
 */
export interface PlayerSettingsOptions {
  /** The pending turn's deadline as the campaign's clock reads it (without deadlineClock). */
  deadline?: string;
  deadlineClock?: DeadlineClock;
  recordPreference?: (nation: NationId, pref: PlayerPreference, note?: string) => Promise<void>;
}

export class PlayerSettings {
  /** Zones set (a name) or cleared (null) by mail in this run: they apply at once to the answers that follow. */
  private zonesSet: Record<string, string | null> = {};

  constructor(
    private readonly room: Mailroom,
    private readonly opts: PlayerSettingsOptions,
  ) {}

  /** The pending turn's deadline as this nation's player reads it (their own zone beside the campaign's). */
  deadlineFor(nation: string): string | undefined {
    const clock = this.clock();
    return clock ? deadlineFor(clock, nation) : this.opts.deadline;
  }

  /** Any moment as this nation's player reads times: as deadlines are written, or in UTC without a schedule. */
  timeFor(nation: string, at: Date): string {
    const clock = this.clock();
    return deadlineFor(clock ? { ...clock, at } : { at, timeZone: 'UTC', zones: {} }, nation);
  }

  private clock(): DeadlineClock | undefined {
    const clock = this.opts.deadlineClock;
    if (!clock) return undefined;
    const zones = { ...clock.zones };
    for (const [n, zone] of Object.entries(this.zonesSet)) {
      // Cleared by mail: back to campaign.yaml's zone for the nation, if it has one.
      const own = zone ?? this.room.open.file.nations[n]?.timeZone;
      if (own === undefined) delete zones[n];
      else zones[n] = own;
    }
    return { ...clock, zones };
  }

  /** A "timezone" or "wait" command: kept by the schedule, or the GM told; the answer says which. */
  async apply(decision: Extract<Decision, { kind: 'command' }>, facts: CommandFacts, key: string, pendingTurn: number, queue: (id: string) => void): Promise<void> {
    const room = this.room;
    const record = this.opts.recordPreference;
    const note = `by mail from ${decision.replyTo}`;
    const t = decision.timeZone;
    if (t) {
      if (t.kind !== 'unknown') {
        if (record) await record(decision.nation, t.kind === 'set' ? { kind: 'time-zone', zone: t.zone } : { kind: 'time-zone' }, note);
        else queue(await room.alert({ key: `time-zone:${key}`, subject: `${decision.nation} asks for another time zone`, text: `${decision.nation} wrote from ${decision.replyTo}: ${t.kind === 'set' ? `show my deadlines in ${t.zone}` : "show my deadlines in the campaign's zone alone"}. The schedule is not running (no runtime.yaml), so it was not kept; set nations.${decision.nation}.timeZone in campaign.yaml.` }));
        if (record) this.zonesSet[decision.nation] = t.kind === 'set' ? t.zone : null;
      }
      facts.timeZone = { request: t, recorded: record !== undefined };
    }
    if (decision.wait !== undefined) {
      if (record) await record(decision.nation, { kind: 'wait', turn: pendingTurn, wait: decision.wait }, note);
      else queue(await room.alert({ key: `wait:${key}`, subject: `${decision.nation} asks turn ${pendingTurn} ${decision.wait ? '' : 'not '}to wait`, text: `${decision.nation} wrote from ${decision.replyTo} that turn ${pendingTurn} should ${decision.wait ? '' : 'not '}wait for its deadline. The schedule is not running (no runtime.yaml), so it was not kept.` }));
      facts.wait = { wait: decision.wait, recorded: record !== undefined };
    }
    const deadline = this.deadlineFor(decision.nation);
    if (deadline !== undefined) facts.deadline = deadline;
  }
}
