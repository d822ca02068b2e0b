import { InvalidArgumentError } from 'commander';

/**
 * Parsers of the command line's values: a wrong value is refused before the
 * command runs, with what was expected (commander prints "error: option
 * '--turn <turn>' argument 'abc' is invalid. <our words>" and exits 1).
 */
export function wholeNumber(what: string, min = 0): (v: string) => number {
  const said = what.charAt(0).toUpperCase() + what.slice(1);
  return (v: string) => {
    if (!/^\d+$/.test(v.trim()) || Number(v) < min) throw new InvalidArgumentError(`${said} is a whole number${min > 0 ? ` from ${min}` : ''}, not "${v}".`);
    return Number(v);
  };
}

/** A turn number (0 is the starting position). */
export const turnArg = wholeNumber('a turn');
