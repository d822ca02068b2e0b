/**
 * `fatecraft serve`: the desk on a port, until SIGTERM or Ctrl-C. It reads the campaign folders as they are
 * and writes only as the mail and the commands do, so it runs beside `fatecraft tick` (cron or the daemon)
 * on the same folders.
 */
import { serve, type ServerType } from '@hono/node-server';
import { findCampaigns } from './campaigns.js';
import { createDesk, type Desk, type DeskOptions } from './desk.js';

export interface ServeOptions extends Omit<DeskOptions, 'campaigns' | 'url'> {
  /** A campaign folder, or a folder of campaign folders. */
  folder: string;
  port: number;
  host: string;
  /** The public address when it is not http://host:port (behind a TLS proxy). */
  url?: string;
  env?: NodeJS.ProcessEnv;
}

export interface RunningDesk {
  desk: Desk;
  url: string;
  slugs: string[];
  server: ServerType;
  close(): Promise<void>;
}

export async function startDesk(opts: ServeOptions): Promise<RunningDesk> {
  const campaigns = await findCampaigns(opts.folder, opts.env);
  // The public address names the port, which is known once listening (port 0: any free one).
  let desk: Desk | undefined = undefined;
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: (request, env) => (desk ? desk.app.fetch(request, env) : new Response('Starting', { status: 503 })), port: opts.port, hostname: opts.host }, () => resolve(s));
    s.once('error', reject);
  });
  // Behind a proxy that keeps connections open (nginx, Caddy), the desk must not close one first: the
  // proxy's next request on it would be reset.
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = (opts.url ?? `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`).replace(/\/+$/, '');
  desk = createDesk({ ...opts, campaigns, url });
  return {
    desk,
    url,
    slugs: campaigns.map((c) => c.slug),
    server,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await desk.close();
    },
  };
}
