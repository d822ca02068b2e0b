import { setFlagsFromString } from 'node:v8';

/**
 * How soon V8 hands a hot function to its optimising compiler (TurboFan), set
 * before the program's own modules run. A turn is a few seconds of many
 * different functions, in two or three threads that each compile their own
 * copies; at V8's default budget (67,584) a profile of the 989-nation,
 * one-unit turn spent about a quarter of all its CPU in TurboFan itself
 * (`perf record`, 2026-12-02), compiling functions that then ran a few
 * milliseconds more. Eight times the budget optimises only what stays hot:
 * user CPU 8.3 → 5.7 s there and 5.9 → 3.5 s at 100 nations × 100 units
 * (medians of three, docs/benchmarks.md, sixth session). Only when and what
 * is compiled changes, never what the code computes.
 *
 * Flags are process-wide: worker threads started later inherit it. A budget
 * given on node's own command line or in NODE_OPTIONS is left as it is.
 */
const INTERRUPT_BUDGET = 8 * 67_584;

const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) => /^--interrupt[-_]budget(=|$)/.test(arg));
if (!given) setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
