import type { Command } from 'commander';
import { CampaignError } from '../../campaign/problems.js';
import { clockFromEnv } from '../../schedule/clock.js';
import { turnRenderers } from '../renderers.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('the web desk: players read their reports and send orders, the GM sees the status (docs/web.md); stop with SIGTERM or Ctrl-C')
    .argument('<campaigns>', 'a campaign folder, or a folder of campaign folders')
    .option('--port <port>', 'the port to listen on', '8080')
    .option('--host <host>', 'the address to listen on (127.0.0.1: behind a proxy on this host)', '127.0.0.1')
    .option('--url <url>', 'the address players open, when it is not http://<host>:<port> (behind a TLS proxy: https://desk.example.org)')
    .option('--trust-proxy', 'take the client address from X-Forwarded-For sent by a proxy on this host (for the sign-in limits)')
    .action(async (folder: string, opts: { port: string; host: string; url?: string; trustProxy?: boolean }) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CampaignError([{ file: '--port', message: `"${opts.port}" is not a port number` }]);
      if (opts.url !== undefined && !/^https?:\/\/[^/\s]+(?:\/)?$/.test(opts.url)) throw new CampaignError([{ file: '--url', message: `"${opts.url}" is not an address like https://desk.example.org (no path)` }]);
      const { startDesk } = await import('../../web/serve.js');
      const { PREVIEW_WORKER } = await import('../../web/preview.js');
      const key = process.env.FATECRAFT_DESK_KEY;
      const running = await startDesk({
        folder,
        port,
        host: opts.host,
        ...(opts.url ? { url: opts.url } : {}),
        ...(key ? { key } : {}),
        trustProxy: opts.trustProxy ?? false,
        clock: clockFromEnv(),
        renderers: turnRenderers(),
        // The GM's preview in a thread of its own, its reports made as turnRenderers() makes them.
        previewWorker: PREVIEW_WORKER,
        log: (line) => console.error(`[desk] ${line}`),
      });
      console.log(`fatecraft desk: ${running.url}/ serving ${running.slugs.map((s) => `${running.url}/c/${s}/`).join(', ')}`);
      if (!key) console.log('Sessions end when the desk stops (set FATECRAFT_DESK_KEY to keep them across restarts).');
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      await running.close();
      console.log('fatecraft desk: stopped');
    });
}
