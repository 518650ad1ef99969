/**
 * Runs the browser-driven suites with mocha in node:
 *   node out/test/e2e/ui/run.js ui     the workbench with the extension under development
 *   node out/test/e2e/ui/run.js vsix   the packaged .vsix installed like a user would
 * Prints "N passed, N failed" (a skipped test counts as failed).
 */
import * as path from 'path';
import Mocha from 'mocha';

const which = process.argv[2] ?? 'ui';
const files: Record<string, string[]> = { ui: ['seed.test.js', 'workbench.test.js', 'preview-ux.test.js', 'first-steps.test.js', 'order.test.js', 'images.test.js', 'new-user.test.js'], vsix: ['vsix.test.js'] };
if (!files[which]) {
  console.error(`usage: run.js ${Object.keys(files).join('|')}`);
  process.exit(2);
}
const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 90000, reporter: 'spec', bail: false });
for (const file of files[which]) mocha.addFile(path.join(__dirname, file));
const runner = mocha.run((failures) => {
  const passed = runner.stats?.passes ?? 0;
  const pending = runner.stats?.pending ?? 0;
  console.log(`${passed} passed, ${failures + pending} failed${pending ? ` (${pending} skipped)` : ''}`);
  process.exitCode = failures + pending ? 1 : 0;
});
