import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:quick`: the pure parts — the rules (test/core), orders, text, the reports and their goldens
 * without a browser, the layer check — in well under a minute. No build, no servers, no browser (the
 * browser's tests are skipped and say so), nothing spawned. Beside `npm test`, never instead of it.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/{core,orders,text,report,architecture}/**/*.test.ts'],
    // Runs turns on worker threads of the built program.
    exclude: ['test/report/workers.test.ts'],
    globalSetup: ['test/support/quick-setup.ts'],
    env: { ...base.test?.env, FATECRAFT_TEST_BROWSER: 'off' },
  },
});
