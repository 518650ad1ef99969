/** Runs the CLI in-process in a folder, capturing its output (for conformance cases). */
import { main } from '../../server/src/cli/main';

export function runCliIn(argv: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    const code = main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { code, stdout, stderr };
  } finally {
    process.chdir(previous);
  }
}
