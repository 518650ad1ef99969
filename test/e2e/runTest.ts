/**
 * Runs the extension-host suite with @vscode/test-electron's standard runTests(). Here no desktop VS Code
 * can be downloaded, so vscodeExecutablePath defaults to scripts/e2e/code-shim.js (the VS Code server +
 * headless chromium); set VSCODE_EXECUTABLE to a desktop `code` binary to run the same suite there, or
 * VSCODE_EXECUTABLE=download to let test-electron download one.
 */
import * as fs from 'fs';
import * as path from 'path';
import { runTests } from '@vscode/test-electron';

const ROOT = path.resolve(__dirname, '../../..');

async function main(): Promise<void> {
  // The tests edit, rename and delete files: they get a fresh copy of the fixture workspace. Not under a
  // dot-folder (.tmp): yaml-language-server's file patterns, which the Red Hat YAML tests reproduce, never
  // match a path through one, as a user's workspace under ~/.config would not be matched either.
  const workspace = path.join(ROOT, 'out', 'e2e-workspace');
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'test/e2e/workspace'), workspace, { recursive: true });
  // The only installed extension: a stand-in with Red Hat YAML's id and settings (it validates nothing),
  // for the no-double-reports test (test/e2e/stubs/red-hat-yaml).
  const extensions = path.join(ROOT, '.tmp', 'e2e-extensions');
  fs.rmSync(extensions, { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'test/e2e/stubs/red-hat-yaml'), path.join(extensions, 'redhat.vscode-yaml-0.0.0-e2e-stub'), { recursive: true });
  const executable = process.env.VSCODE_EXECUTABLE ?? path.join(ROOT, 'scripts/e2e/code-shim.js');
  try {
    await runTests({
      ...(executable === 'download' ? {} : { vscodeExecutablePath: executable }),
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: path.join(__dirname, 'suite', 'index'),
      launchArgs: [workspace, `--extensions-dir=${extensions}`, '--skip-welcome', '--skip-release-notes'],
      extensionTestsEnv: { CLOUD_CONFIG_MERGE_E2E_WORKSPACE: workspace, CLOUD_CONFIG_MERGE_REPO: ROOT },
    });
  } catch (err) {
    console.error('The extension-host suite failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  }
}

void main();
