/**
 * Ticks the steps of the "Get started" walkthrough when their commands run.
 *
 * The walkthrough's `onCommand:` events are only seen once VS Code's Getting Started service exists,
 * which is when a Welcome or walkthrough page first opens: a preview made before that was never
 * counted. An `onContext:` event is no better on its own: a context key already true when the service
 * registers the walkthrough is recorded as seen without ticking the step. So each step has a context key
 * that rests at false and is pulsed (true, then false) when its command runs and again whenever a page
 * that may be the walkthrough opens; which steps were done is kept in the global state.
 */
import * as vscode from 'vscode';

export type WalkthroughStep = 'previewed' | 'compared' | 'navigated';
const STEPS: readonly WalkthroughStep[] = ['previewed', 'compared', 'navigated'];
const key = (step: WalkthroughStep) => `cloudConfigMerge.walkthrough.${step}`;

let state: vscode.Memento | undefined;

/** Pulses the steps done so far whenever a tab opens that is not a text, diff, notebook or terminal editor. */
export function registerWalkthrough(globalState: vscode.Memento): vscode.Disposable {
  state = globalState;
  return vscode.window.tabGroups.onDidChangeTabs((e) => {
    if (e.opened.some((t) => isOtherEditor(t.input))) for (const step of STEPS) if (globalState.get<boolean>(key(step))) void pulse(step);
  });
}

function isOtherEditor(input: unknown): boolean {
  return !(
    input instanceof vscode.TabInputText ||
    input instanceof vscode.TabInputTextDiff ||
    input instanceof vscode.TabInputCustom ||
    input instanceof vscode.TabInputNotebook ||
    input instanceof vscode.TabInputNotebookDiff ||
    input instanceof vscode.TabInputTerminal
  );
}

/** A walkthrough step's command ran. */
export function stepDone(step: WalkthroughStep): void {
  void state?.update(key(step), true);
  void pulse(step);
}

async function pulse(step: WalkthroughStep): Promise<void> {
  await vscode.commands.executeCommand('setContext', key(step), true);
  await vscode.commands.executeCommand('setContext', key(step), false);
}
