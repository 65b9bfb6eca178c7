/** The receiver process (stack/harness/receiver.ts) and a request/reply channel to it over IPC. */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ReceiverReply, ReceiverRequest } from './receiver-protocol';

type Request = ReceiverRequest extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;
type ReplyOf<T extends Request['type']> = Extract<ReceiverReply, { type: T extends 'progress' | 'dump' ? T : 'ok' }>;

/** The receiver process: its URL, its pid (for CPU accounting) and `request`. */
export class ReceiverProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: ReceiverReply) => void; reject: (e: Error) => void }>();
  private readonly exit: Promise<unknown>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on('message', (msg: ReceiverReply) => this.waiting.get(msg.id)?.resolve(msg));
    this.exit = once(child, 'exit').finally(() => {
      for (const w of this.waiting.values()) w.reject(new Error('receiver process exited'));
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Forks stack/harness/receiver.ts and waits until it listens on a free loopback port. */
  static async start(timeoutMs = 30_000): Promise<ReceiverProcess> {
    const child = fork(fileURLToPath(new URL('./receiver.ts', import.meta.url)), [], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
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
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.reject(new Error('receiver process exited'));
    const id = this.nextId++;
    return new Promise<ReceiverReply>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(id);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`receiver did not answer ${req.type} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (r) => {
          done();
          resolve(r);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      this.child.send({ ...req, id });
    }) as Promise<ReplyOf<T['type']>>;
  }

  /** Asks it to close and exit; SIGKILL if it has not gone within `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await this.request({ type: 'stop' }, graceMs).catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exit;
    clearTimeout(timer);
  }
}
