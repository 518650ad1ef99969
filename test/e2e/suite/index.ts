/** Loaded by VS Code through --extensionTestsPath: runs the mocha suites inside the extension host. */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000, reporter: 'spec' });
  for (const f of fs.readdirSync(__dirname).sort()) if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const stats = runner.stats;
      const passed = stats?.passes ?? 0;
      const pending = stats?.pending ?? 0;
      // a skipped test is neither passed nor silently dropped
      console.log(`${passed} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
      if (failures > 0 || pending > 0) reject(new Error(`${failures} failed, ${pending} skipped`));
      else resolve();
    });
  });
}
