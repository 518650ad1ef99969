/**
 * The Python side of a differential test: a process that answers each line written to it with one
 * line, in order. If it exits while questions are pending the test stops (exit 2) rather than
 * waiting forever; stderr is passed through.
 */
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

interface Waiting {
  resolve: (line: string) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

export class LineOracle {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Waiting[] = [];

  constructor(command: string, args: string[], private readonly options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}) {
    this.child = spawn(command, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    this.child.on('exit', (code) => {
      if (this.waiting.length) {
        console.error(`python oracle exited (${code}) with ${this.waiting.length} requests pending`);
        process.exit(2);
      }
    });
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      const w = this.waiting.shift();
      if (!w) return;
      clearTimeout(w.timer);
      w.resolve(line);
    });
  }

  /** Writes one line (a JSON text without its newline) and resolves with the answer line. */
  askLine(line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const w: Waiting = { resolve, reject };
      const ms = this.options.timeoutMs;
      if (ms) w.timer = setTimeout(() => reject(new Error(`oracle timeout for ${line.slice(0, 200)}`)), ms);
      this.waiting.push(w);
      this.child.stdin.write(line + '\n');
    });
  }

  /** JSON in, JSON out. */
  async ask<T>(request: unknown): Promise<T> {
    return JSON.parse(await this.askLine(JSON.stringify(request))) as T;
  }

  close(): void {
    this.child.stdin.end();
  }
}
