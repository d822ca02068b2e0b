/**
 * The CPU time this process spends on `work`, in milliseconds. For the few tests that check that some input
 * is refused before the work it asks for blows up (a YAML bomb, a file many times the size limit): unlike
 * the wall clock, CPU time does not grow because other programs share the machine, so a bound of many
 * times what the refusal needs catches the blow-up and never a busy machine.
 */
export function cpuTimeOf<T>(work: () => T): { result: T; ms: number } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}
