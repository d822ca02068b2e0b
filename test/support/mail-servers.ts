/**
 * Real mail servers on loopback for integration tests.
 *
 *   player ──SMTP──▶ relay (smtp-server) ──LMTP──▶ Dovecot 2.3 ◀──IMAP── program under test
 *
 * Each call to startMailServers() gets its own short temp dir under /tmp, its own free ports and its own
 * foreground Dovecot, so test files can run side by side. Why each setting is what it is:
 * docs/mail-testing.md. Needs root (Dovecot drops to nobody for mail and dovecot/dovenull for its services)
 * and the Debian packages dovecot-imapd + dovecot-lmtpd (.ci/mail-setup.sh installs them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createTransport } from 'nodemailer';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { awaiting } from './awaiting.js';
import { busyNote, hangLimit } from './limits.js';

const HOST = '127.0.0.1';
const DOVECOT_CANDIDATES = ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'];

export interface Endpoint {
  host: string;
  port: number;
}

export interface MailServersOptions {
  /** Users known from the start, address → password. More can be added later with addUser(). */
  users?: Record<string, string>;
  /** When set, the relay accepts AUTH only with these credentials; otherwise AUTH is optional and any login passes. */
  relayAuth?: { user: string; pass: string };
  /** How long to wait for Dovecot's greetings on start and restart (default: a minute, scaled by the machine's slowness). */
  startTimeoutMs?: number;
}

/** A message as stored in a mailbox, read back by the harness's own IMAP client. */
export interface StoredMessage {
  uid: number;
  raw: Buffer;
  parsed: ParsedMail;
}

/** A message the relay accepted and handed to LMTP. */
export interface RelayedMessage {
  from: string;
  to: string[];
  raw: Buffer;
}

/** Fault injection for the SMTP relay. Faults stay until used up or reset(). */
export interface RelayFaults {
  /** The next `times` messages are refused after DATA with `code` (451 by default: "try again later"). */
  failNext(times?: number, code?: number): void;
  /** RCPT TO for this address answers 550 5.1.1, even for a known user. */
  refuseRecipient(address: string): void;
  reset(): void;
}

export interface MailServers {
  readonly dir: string;
  readonly imap: Endpoint;
  readonly lmtp: Endpoint;
  readonly smtp: Endpoint;
  readonly relay: { readonly faults: RelayFaults; readonly relayed: readonly RelayedMessage[] };
  /** Adds a user (Dovecot login and relay recipient); usable at once, no reload needed. */
  addUser(address: string, password: string): Promise<void>;
  /** Delivers a raw message straight into Dovecot over LMTP, bypassing the relay. */
  deliver(raw: Buffer | string, to: string | string[], from?: string): Promise<void>;
  /** Reads every message of a mailbox over IMAP, oldest UID first; [] when the mailbox does not exist. */
  readMailbox(user: string, password: string, mailbox?: string): Promise<StoredMessage[]>;
  /** SIGKILLs Dovecot and starts it again on the same ports and data; resolves once it greets again. */
  restartDovecot(): Promise<void>;
  /** SIGKILLs Dovecot and leaves it down (its ports refuse connections) until startDovecot(). */
  stopDovecot(): Promise<void>;
  /** Starts a stopped Dovecot again on the same ports and data; resolves once it greets. */
  startDovecot(): Promise<void>;
  /** The tail of Dovecot's log, for failure messages. */
  dovecotLog(): string;
  /** Process id (and process group id) of the Dovecot master; undefined once stopped. */
  readonly dovecotPid: number | undefined;
  stop(): Promise<void>;
}

/** True when this machine can run the harness: Dovecot installed and running as root. */
export function mailServersAvailable(): boolean {
  return findDovecot() !== undefined && process.getuid?.() === 0;
}

export async function startMailServers(options: MailServersOptions = {}): Promise<MailServers> {
  const dovecotBin = findDovecot();
  if (dovecotBin === undefined) {
    throw new Error('dovecot is not installed: run .ci/mail-setup.sh (needs root)');
  }
  const startTimeoutMs = options.startTimeoutMs ?? hangLimit(60_000);
  // Short on purpose: Dovecot's unix sockets (run/login/stats-writer) must fit in 108 bytes.
  const dir = await fsp.mkdtemp('/tmp/fcmail-');
  let dovecot: DovecotProcess | undefined;
  let relay: Relay | undefined;
  const cleanupOnExit = (): void => {
    // Last resort if the test process exits without stop(): never leave Dovecot or its dir behind.
    dovecot?.killSync();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', cleanupOnExit);

  try {
    await prepareInstanceDir(dir);
    const [imapPort, lmtpPort] = await findFreePorts(2);
    const imap: Endpoint = { host: HOST, port: imapPort! };
    const lmtp: Endpoint = { host: HOST, port: lmtpPort! };
    const users = new UserFiles(path.join(dir, 'users'));
    for (const [address, password] of Object.entries(options.users ?? {})) {
      await users.add(address, password);
    }
    await fsp.writeFile(path.join(dir, 'dovecot.conf'), dovecotConfig(dir, imap.port, lmtp.port));

    dovecot = new DovecotProcess(dovecotBin, dir, imap, lmtp, startTimeoutMs);
    await dovecot.start();
    relay = await Relay.start(lmtp, users, options.relayAuth);

    const openClients = new Set<ImapFlow>();
    let stopped = false;
    const started = { dovecot, relay };

    return {
      dir,
      imap,
      lmtp,
      smtp: relay.endpoint,
      relay: { faults: relay.faults, relayed: relay.relayed },
      addUser: (address, password) => users.add(address, password),
      deliver: async (raw, to, from = 'harness@game.test') => {
        await lmtpDeliver(lmtp, from, Array.isArray(to) ? to : [to], toBuffer(raw));
      },
      readMailbox: (user, password, mailbox = 'INBOX') => readMailbox(imap, user, password, mailbox, openClients),
      restartDovecot: () => started.relay.whileHeld(() => started.dovecot.restart()),
      stopDovecot: () => started.relay.whileHeld(() => started.dovecot.kill()),
      startDovecot: () => started.dovecot.start(),
      dovecotLog: () => started.dovecot.logTail(),
      get dovecotPid() {
        return started.dovecot.pid;
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        // Log out clients first: an IMAP session process outlives the master while its client is connected.
        await Promise.all([...openClients].map((client) => logoutQuietly(client)));
        await started.relay.close();
        await started.dovecot.kill();
        await fsp.rm(dir, { recursive: true, force: true });
        process.removeListener('exit', cleanupOnExit);
      },
    };
  } catch (error) {
    await relay?.close();
    await dovecot?.kill();
    await fsp.rm(dir, { recursive: true, force: true });
    process.removeListener('exit', cleanupOnExit);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Instance directory and config
// ---------------------------------------------------------------------------------------------------------

async function prepareInstanceDir(dir: string): Promise<void> {
  // mkdtemp makes 0700, and then the auth process (user dovecot) cannot read the users/ files.
  await fsp.chmod(dir, 0o755);
  for (const sub of ['run', 'state', 'mail', 'users']) {
    await fsp.mkdir(path.join(dir, sub), { mode: 0o755 });
  }
  // Dovecot creates mail/<domain>/<user>/Maildir as nobody; a root-owned mail/ makes LMTP answer 451.
  await fsp.chown(path.join(dir, 'mail'), systemId('/etc/passwd', 'nobody'), systemId('/etc/group', 'nogroup'));
}

/** Numeric id of a user or group, read from /etc/passwd or /etc/group (Node has no getpwnam). */
function systemId(file: '/etc/passwd' | '/etc/group', name: string): number {
  const line = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  const id = Number(line?.split(':')[2]);
  if (!Number.isInteger(id)) throw new Error(`no ${name} in ${file}`);
  return id;
}

function dovecotConfig(dir: string, imapPort: number, lmtpPort: number): string {
  return `# Generated by test/support/mail-servers.ts; see docs/mail-testing.md
protocols = imap lmtp
listen = ${HOST}
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
login_trusted_networks = 127.0.0.0/8
mail_location = maildir:~/Maildir
mail_fsync = never
passdb {
  driver = passwd-file
  # One file per user (the path has a variable): Dovecot stats a passwd-file at most once per second, so
  # a user appended to a shared file can stay unknown for up to a second; a new file is read on first use.
  args = scheme=PLAIN username_format=%u ${dir}/users/%u
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${dir}/mail/%d/%n
}
service imap-login {
  chroot =
  inet_listener imap {
    address = ${HOST}
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = ${HOST}
    port = ${lmtpPort}
  }
}
service anvil {
  chroot =
}
`;
}

/** The passwd-files Dovecot authenticates against (one per user), and the relay's list of known recipients. */
class UserFiles {
  private readonly known = new Set<string>();

  constructor(readonly dir: string) {}

  async add(address: string, password: string): Promise<void> {
    if (!/^[^\s:/@]+@[^\s:/@]+$/.test(address) || /[:\r\n]/.test(password)) {
      throw new Error(`user ${JSON.stringify(address)}: want local@domain, and no colons or line breaks in the password`);
    }
    // Written whole and renamed, so Dovecot never reads (and caches for a second) a half-written file.
    const file = path.join(this.dir, address);
    await fsp.writeFile(`${file}.tmp`, `${address}:{PLAIN}${password}\n`, { mode: 0o644 });
    await fsp.rename(`${file}.tmp`, file);
    this.known.add(address.toLowerCase());
  }

  has(address: string): boolean {
    return this.known.has(address.toLowerCase());
  }
}

function findDovecot(): string | undefined {
  const fromEnv = process.env.DOVECOT_BIN;
  return [...(fromEnv ? [fromEnv] : []), ...DOVECOT_CANDIDATES].find((candidate) => fs.existsSync(candidate));
}

/** Binds port 0 for each wanted port at once (so they differ), then releases them for Dovecot to take. */
async function findFreePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      return new Promise<net.Server>((resolve, reject) => {
        const server = net.createServer();
        server.once('error', reject);
        server.listen(0, HOST, () => resolve(server));
      });
    }),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

// ---------------------------------------------------------------------------------------------------------
// Dovecot process
// ---------------------------------------------------------------------------------------------------------

class DovecotProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  constructor(
    private readonly bin: string,
    private readonly dir: string,
    private readonly imap: Endpoint,
    private readonly lmtp: Endpoint,
    private readonly timeoutMs: number,
  ) {}

  async start(): Promise<void> {
    // A port just released by a killed instance (or taken by someone else between findFreePorts and now)
    // makes Dovecot exit with 89 "Address already in use"; a few quick retries cover the first case.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.spawnAndAwaitGreetings();
        return;
      } catch (error) {
        await this.kill();
        if (attempt >= 3 || !/already in use/i.test(this.output + this.logTail())) throw error;
      }
    }
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  /** SIGKILL to the whole process group: the master dies in <10 ms, children follow, ports are free at once. */
  async kill(): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    this.killSync();
    await this.exited;
    // The master exits first and its children a moment later. Wait for them so "stopped" means no process
    // of this instance runs and every port is free. (They stay zombies until init reaps them, which can
    // take a second here; a zombie holds no port or file, so it does not count.)
    const deadline = Date.now() + 5_000;
    while (liveGroupProcesses(pid).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    this.child = undefined;
  }

  /**
   * Signals the group even when the master has already exited: IMAP session processes can outlive it
   * while a client stays connected. Synchronous so it can run from a process 'exit' handler.
   */
  killSync(): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // ESRCH: nothing left in the group.
    }
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  logTail(): string {
    try {
      return fs.readFileSync(path.join(this.dir, 'dovecot.log'), 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '';
    }
  }

  private async spawnAndAwaitGreetings(): Promise<void> {
    this.output = '';
    // detached: its own process group, so kill() reaches the imap/lmtp/auth children too.
    const child = spawn(this.bin, ['-F', '-c', path.join(this.dir, 'dovecot.conf')], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const collect = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const died = this.exited.then(() => {
      throw new Error(`dovecot exited during start (${describeExit(child)}):\n${this.output}\n${this.logTail()}`);
    });
    died.catch(() => undefined); // only observed while racing below
    const deadline = Date.now() + this.timeoutMs;
    const polling = new AbortController(); // stops the other poller once one side has failed
    try {
      await awaiting(
        `Dovecot's IMAP and LMTP greetings on ports ${this.imap.port} and ${this.lmtp.port}`,
        Promise.race([Promise.all([awaitGreeting(this.imap, /^\* OK/, deadline, polling.signal), awaitGreeting(this.lmtp, /^220 /, deadline, polling.signal)]), died]),
      );
    } finally {
      polling.abort();
    }
  }
}

/** Pids of the processes in a process group that are still running (not zombies), from /proc. */
export function liveGroupProcesses(pgid: number): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return []; // no /proc: nothing to wait for
  }
  const live: number[] = [];
  for (const pid of entries) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ..."; comm may contain spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') live.push(Number(pid));
  }
  return live;
}

function describeExit(child: ChildProcess): string {
  return child.signalCode !== null ? `signal ${child.signalCode}` : `exit ${child.exitCode}`;
}

/** Connects until the server's first line matches; a refused connection just means "not listening yet". */
async function awaitGreeting(endpoint: Endpoint, pattern: RegExp, deadline: number, signal: AbortSignal): Promise<void> {
  let lastError = 'no attempt';
  while (Date.now() < deadline && !signal.aborted) {
    const line = await readFirstLine(endpoint, deadline - Date.now()).catch((error: Error) => {
      lastError = error.message;
      return undefined;
    });
    if (line !== undefined && pattern.test(line)) return;
    if (line !== undefined) lastError = `unexpected greeting ${JSON.stringify(line)}`;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no greeting from ${endpoint.host}:${endpoint.port} in time: ${lastError}. ${busyNote()}`);
}

function readFirstLine(endpoint: Endpoint, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(endpoint.port, endpoint.host);
    let received = '';
    socket.setTimeout(Math.max(timeoutMs, 1), () => socket.destroy(new Error('timed out waiting for greeting')));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\n');
      if (end >= 0) {
        socket.destroy();
        resolve(received.slice(0, end).trimEnd());
      }
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('closed before greeting')));
  });
}

// ---------------------------------------------------------------------------------------------------------
// SMTP relay → LMTP
// ---------------------------------------------------------------------------------------------------------

class Relay {
  readonly relayed: RelayedMessage[] = [];
  readonly faults: RelayFaults;
  private failures = { remaining: 0, code: 451 };
  private readonly refused = new Set<string>();
  /** Deliveries to Dovecot under way, and whether new ones are turned away (see whileHeld). */
  private readonly delivering = new Set<Promise<void>>();
  private held = false;
  private readonly server: SMTPServer;
  private endpointValue: Endpoint | undefined;

  private constructor(
    private readonly lmtp: Endpoint,
    private readonly users: UserFiles,
    auth: MailServersOptions['relayAuth'],
  ) {
    this.faults = {
      failNext: (times = 1, code = 451) => {
        this.failures = { remaining: times, code };
      },
      refuseRecipient: (address) => {
        this.refused.add(address.toLowerCase());
      },
      reset: () => {
        this.failures = { remaining: 0, code: 451 };
        this.refused.clear();
      },
    };
    this.server = new SMTPServer({
      name: 'relay.game.test',
      logger: false,
      // smtp-server's bundled certificate has expired, so STARTTLS would fail; loopback needs none.
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      closeTimeout: 500,
      onAuth: (authData, _session, callback) => {
        const ok = auth === undefined || (authData.username === auth.user && authData.password === auth.pass);
        if (ok) callback(null, { user: authData.username });
        else callback(smtpError(535, '5.7.8 Authentication credentials invalid'));
      },
      onRcptTo: (address, _session, callback) => {
        // Refuse unknown users at RCPT like a real MTA does, so a mixed envelope is a partial success.
        const key = address.address.toLowerCase();
        if (this.refused.has(key) || !this.users.has(key)) {
          callback(smtpError(550, `5.1.1 <${address.address}> User unknown`));
        } else {
          callback();
        }
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.once('end', () => {
          this.forward(session, Buffer.concat(chunks)).then(
            () => callback(null, 'Relayed'),
            (error: Error) => callback(error),
          );
        });
      },
    });
    this.server.on('error', () => undefined); // a client's socket error must not crash the test process
  }

  static async start(lmtp: Endpoint, users: UserFiles, auth: MailServersOptions['relayAuth']): Promise<Relay> {
    const relay = new Relay(lmtp, users, auth);
    await new Promise<void>((resolve, reject) => {
      relay.server.server.once('error', reject);
      relay.server.listen(0, HOST, () => resolve());
    });
    const { port } = relay.server.server.address() as net.AddressInfo;
    relay.endpointValue = { host: HOST, port };
    return relay;
  }

  get endpoint(): Endpoint {
    if (this.endpointValue === undefined) throw new Error('relay not listening');
    return this.endpointValue;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async forward(session: SMTPServerSession, raw: Buffer): Promise<void> {
    if (this.failures.remaining > 0) {
      this.failures.remaining -= 1;
      const { code } = this.failures;
      throw smtpError(code, `${code >= 500 ? '5' : '4'}.3.0 Injected failure`);
    }
    const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
    const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
    if (this.held) throw smtpError(451, '4.3.0 Delivery failed: the mail store is restarting');
    const delivery = lmtpDeliver(this.lmtp, from, to, raw);
    this.delivering.add(delivery);
    try {
      await delivery;
    } catch (error) {
      // Dovecot refusing a recipient is permanent; anything else (Dovecot down, 451 from LMTP) is not.
      const code = (error as { responseCode?: number }).responseCode;
      const reason = (error as Error).message;
      throw code !== undefined && code >= 500
        ? smtpError(550, `5.1.1 ${reason}`)
        : smtpError(451, `4.3.0 Delivery failed: ${reason}`);
    } finally {
      this.delivering.delete(delivery);
    }
    this.relayed.push({ from, to, raw });
  }

  /**
   * Runs `stop` (Dovecot killed, or killed and started again) with no delivery to it under way: new ones are
   * answered 451 meanwhile, and those already under way finish first. Killed between storing a message and
   * answering for it, Dovecot would leave the relay a stored message it must call failed, and the sender's
   * retry a second copy: SMTP's at-least-once, which the tests would then blame on the program under test.
   */
  async whileHeld<T>(stop: () => Promise<T>): Promise<T> {
    this.held = true;
    try {
      await Promise.allSettled([...this.delivering]);
      return await stop();
    } finally {
      this.held = false;
    }
  }
}

function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

async function lmtpDeliver(lmtp: Endpoint, from: string, to: string[], raw: Buffer): Promise<void> {
  const transport = createTransport({ lmtp: true, host: lmtp.host, port: lmtp.port, logger: false });
  try {
    const info = await transport.sendMail({ envelope: { from, to }, raw });
    // LMTP answers per recipient; treat any refusal as a failed delivery so tests notice.
    if ((info.rejected ?? []).length > 0) {
      throw smtpError(550, `LMTP refused ${(info.rejected ?? []).join(', ')}: ${info.response}`);
    }
  } finally {
    transport.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading mailboxes back
// ---------------------------------------------------------------------------------------------------------

async function readMailbox(
  imap: Endpoint,
  user: string,
  password: string,
  mailbox: string,
  openClients: Set<ImapFlow>,
): Promise<StoredMessage[]> {
  const client = new ImapFlow({
    host: imap.host,
    port: imap.port,
    secure: false,
    auth: { user, pass: password },
    logger: false,
  });
  client.on('error', () => undefined); // surfaced through the awaited calls instead
  openClients.add(client);
  try {
    await client.connect();
    const listed = await client.list();
    if (!listed.some((box) => box.path === mailbox)) return [];
    const opened = await client.mailboxOpen(mailbox, { readOnly: true });
    if (opened.exists === 0) return [];
    const messages = await client.fetchAll('1:*', { uid: true, source: true });
    const stored = await Promise.all(
      messages.map(async (message) => {
        const raw = message.source ?? Buffer.alloc(0);
        return { uid: message.uid, raw, parsed: await simpleParser(raw) };
      }),
    );
    return stored.sort((a, b) => a.uid - b.uid);
  } finally {
    await logoutQuietly(client);
    openClients.delete(client);
  }
}

async function logoutQuietly(client: ImapFlow): Promise<void> {
  try {
    if (client.usable) await client.logout();
  } catch {
    // The server may already be gone (restart, stop); close() below releases the socket either way.
  }
  client.close();
}

function toBuffer(raw: Buffer | string): Buffer {
  return typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
}
