import { Agent, request } from 'node:http';

/**
 * The web bench's players as an HTTP client. The bench's 200 clients run on the same two cores as the desk,
 * so what they spend on each request is taken from the desk: a player's browser runs on the player's own
 * machine. `http`: node's own client with kept-alive connections, about the least a client can spend;
 * `fetch`: the global fetch (undici with web streams), which costs several times more CPU a request (the
 * figures in docs/benchmarks.md). Either way the latency measured is the whole round trip a player waits.
 */
export type ClientKind = 'http' | 'fetch';

export interface Answer {
  status: number;
  body: string;
}

export interface Client {
  get(url: string, cookie: string): Promise<Answer>;
  postForm(url: string, cookie: string, origin: string, form: Record<string, string>): Promise<Answer>;
  close(): void;
}

export function webClient(kind: ClientKind, connections: number): Client {
  if (kind === 'fetch') {
    const answer = async (r: Response): Promise<Answer> => ({ status: r.status, body: await r.text() });
    return {
      get: async (url, cookie) => answer(await fetch(url, { headers: { cookie } })),
      postForm: async (url, cookie, origin, form) => answer(await fetch(url, { method: 'POST', headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) })),
      close: () => undefined,
    };
  }
  // One kept-alive connection a player at most, as a browser keeps one to a site it is using.
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const send = (url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(url, { method, agent, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return {
    get: (url, cookie) => send(url, 'GET', { cookie }),
    postForm: (url, cookie, origin, form) => send(url, 'POST', { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams(form).toString()),
    close: () => agent.destroy(),
  };
}
