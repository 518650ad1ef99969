/** Refreshes of virtual documents, debounced per document: the last request within the delay wins. */
import type * as vscode from 'vscode';

export class RefreshDebouncer {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly fire: (uri: vscode.Uri) => void,
    private readonly delayMs: number,
  ) {}

  schedule(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.fire(uri);
      }, this.delayMs),
    );
  }

  /** How many refreshes wait for their delay. */
  get pending(): number {
    return this.timers.size;
  }

  cancel(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
