import { afterAll, beforeAll } from 'vitest';

/**
 * Loaded before every test file (vitest.config.ts, setupFiles). Test files share their worker process
 * (isolate: false, so the program's modules load once per worker, not once per file): what one file
 * changes in the process (environment variables, the working folder, the exit code) is put back after it,
 * so the next file in the same process starts as it would in a process of its own.
 */
let env: NodeJS.ProcessEnv;
let cwd: string;
beforeAll(() => {
  env = { ...process.env };
  cwd = process.cwd();
});
afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  process.chdir(cwd);
  process.exitCode = undefined;
});
