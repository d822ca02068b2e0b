import { z } from 'zod';
import { ISO_TIME_PROBLEM, isIsoTime } from './iso-time.js';

/**
 * A time in a file: a string, checked by parseIsoTime, with the example in the message. Apart from
 * iso-time.ts so that reading a time does not load zod (the idle tick reads times and nothing else).
 */
export const isoTimeSchema = z.string().refine(isIsoTime, { message: ISO_TIME_PROBLEM });
