import { LADDER_HELP, parseLadder } from '../core/ladder.js';
import { z } from 'zod';

/** The small schemas the event catalogue's readers share (event-catalogue.ts, event-rolls.ts). */
export type Path = (string | number)[];

export const id = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'use lower-case letters, digits, - and _ (e.g. "good-harvest")');
export const int = z.number().int();

/**
 * A ladder value where the GM writes one (a roll's number to beat): a number,
 * "+3", "Good" or "Good (+3)" (docs/rules.md F7), then checked as an integer.
 */
export const ladderInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string()])
    .transform((v, c) => {
      const n = parseLadder(v);
      if (n === undefined) {
        c.addIssue({ code: 'custom', message: `expected ${LADDER_HELP}, got ${JSON.stringify(v)}` });
        return z.NEVER;
      }
      return n;
    })
    .pipe(int.min(min).max(max));
