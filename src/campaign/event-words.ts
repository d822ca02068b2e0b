import { z } from 'zod';

/** The small schemas the event catalogue's readers share (event-catalogue.ts, event-rolls.ts). */
export type Path = (string | number)[];

export const id = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'use lower-case letters, digits, - and _ (e.g. "good-harvest")');
export const int = z.number().int();
