import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ReceiverReply, ReceiverRequest } from './receiver-protocol';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = WithoutId<ReceiverRequest>;
type ReplyOf<T extends Request['type']> = T extends 'progress'
  ? Extract<ReceiverReply, { type: 'progress' }>
  : T extends 'dump'
    ? Extract<ReceiverReply, { type: 'dump' }>
    : Extract<ReceiverReply, { type: 'ok' }>;

const entry = fileURLToPath(new URL('../receiver.ts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The receiver process and a request/reply channel to it over IPC. */
export class ReceiverProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: ReceiverReply) => void; reject: (e: Error) => void }>();
  private exited = false;
  readonly exit: Promise<void>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on('message', (msg: ReceiverReply) => {
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      w.resolve(msg);
    });
    this.exit = new Promise((resolve) => {
      child.once('exit', () => {
        this.exited = true;
        for (const w of this.waiting.values()) w.reject(new Error('receiver process exited'));
        this.waiting.clear();
        resolve();
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Forks bench/receiver.ts and waits until it listens on a free loopback port. */
  static async start(timeoutMs = 30_000): Promise<ReceiverProcess> {
    const child = fork(entry, [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`receiver did not start within ${timeoutMs} ms`));
      }, timeoutMs);
      child.once('message', (msg: ReceiverReply) => {
        clearTimeout(timer);
        if (msg.type === 'listening') resolve(msg.port);
        else reject(new Error(`unexpected first message from receiver: ${msg.type}`));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`receiver exited during start-up (code ${code})`));
      });
    });
    return new ReceiverProcess(child, port);
  }

  request<T extends Request>(req: T, timeoutMs = 30_000): Promise<ReplyOf<T['type']>> {
    if (this.exited) return Promise.reject(new Error('receiver process exited'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`receiver did not answer ${req.type} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r as ReplyOf<T['type']>);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      const message: ReceiverRequest = { ...req, id };
      this.child.send(message);
    });
  }

  /** Asks it to close and exit; SIGKILL if it has not gone within `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.exited) return;
    await this.request({ type: 'stop' }, graceMs).catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exit;
    clearTimeout(timer);
  }
}
