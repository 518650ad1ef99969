/**
 * The faces-agree checks of a list of cases (harness.ts), as node:test tests: one workspace and one language
 * server for the list, three comparisons per case (a fourth for a saved seed set: `--check --seed DIR`).
 * In a failure, `actual` is always the editor's answer and `expected` the CLI's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PreviewResult } from '../../server/src/protocol';
import { Case, Editor, Workspace, checkFindings, diagnosedFiles, inputArgs, planDigestOfJson, planDigestOfPreview, planSectionOf, sorted } from './harness';

export function agreeSuite(title: string, cases: Case[]): void {
  describe(title, () => {
    let ws: Workspace;
    let editor: Editor;
    const previews = new Map<string, Promise<PreviewResult>>();
    const previewOf = (c: Case) => previews.get(c.name) ?? previews.set(c.name, editor.previewOf(c)).get(c.name)!;

    before(async () => {
      ws = new Workspace(cases);
      editor = await Editor.start(ws);
    });
    after(async () => {
      await editor?.stop();
      ws?.dispose();
    });

    for (const c of cases) {
      describe(`${c.kind} ${c.name}`, () => {
        test('--check --format json findings = the editor diagnostics of its files', async () => {
          const files = diagnosedFiles(c);
          const cli = ws.cli([...inputArgs(c), '--check', '--format', 'json']);
          assert.ok(cli.code === 0 || cli.code === 1, `--check exit ${cli.code}: ${cli.stderr}`);
          const inFiles = (keys: Set<string>) => sorted([...keys].filter((k) => files.some((f) => k.startsWith(`${f}:`))));
          assert.deepEqual(sorted(await editor.findings(files)), inFiles(checkFindings(cli.stdout)), 'editor diagnostics (actual) vs --check --format json (expected)');
        });

        if (c.set?.seed) {
          test('--check --seed DIR findings = the editor diagnostics of the seed files', async () => {
            const files = diagnosedFiles(c);
            const cli = ws.cli(['--seed', c.set!.seed!, '--check', '--format', 'json']);
            assert.ok(cli.code === 0 || cli.code === 1, `--check --seed exit ${cli.code}: ${cli.stderr}`);
            const inFiles = (keys: Set<string>) => sorted([...keys].filter((k) => files.some((f) => k.startsWith(`${f}:`))));
            assert.deepEqual(sorted(await editor.findings(files)), inFiles(checkFindings(cli.stdout)), 'editor diagnostics (actual) vs --check --seed --format json (expected)');
          });
        }

        test("--format preview = the editor's preview text", async () => {
          const cli = ws.cli([...inputArgs(c), '--format', 'preview']);
          const shown = await previewOf(c);
          if (cli.code === 2) {
            assert.ok(shown.failure, `the CLI refuses (${cli.stderr.trim()}); the editor's preview merged:\n${shown.text}`);
            return;
          }
          assert.equal(shown.text, cli.stdout);
        });

        test("--plan = the preview's boot-plan section", async () => {
          const cli = ws.cli([...inputArgs(c), '--plan', '--format', 'json']);
          const section = planSectionOf((await previewOf(c)).text);
          if (cli.code === 2) {
            assert.equal(section, undefined, `--plan refuses (${cli.stderr.trim()}) but the preview shows a plan`);
            return;
          }
          assert.ok(section, `--plan gives a plan, the preview has no "Boot plan" section`);
          assert.deepEqual(planDigestOfPreview(section), planDigestOfJson(cli.stdout));
        });
      });
    }
  });
}
