/**
 * IANA time zone names, as campaign.yaml (the schedule's clock, a player's own zone) and players' mail
 * give them. Node's Intl knows the zones; a name is taken only in the Area/Location form (or UTC), so an
 * offset ("+01:00") or an abbreviation ("CET", "PST") that means different things in different places
 * is refused rather than guessed at.
 */
const ZONE_SHAPE = /^(?:UTC|GMT|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/;

export const TIME_ZONE_HINT = 'use an IANA name such as Europe/Berlin, America/New_York or UTC';

/** The zone's canonical spelling ("europe/berlin" → "Europe/Berlin"), or undefined when it is no zone. */
export function canonicalTimeZone(name: string): string | undefined {
  const s = name.trim();
  if (!ZONE_SHAPE.test(s)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: s }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export function validTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
