// Runs inside VS Code for the web, in the extension host's Web Worker (test/web/extension.test.ts stages it): the web
// extension opens a part, gets its diagnostics from the language server in its own worker, and opens the preview.
// Plain JavaScript with no import but vscode: the worker loads this one file.
exports.run = async function run() {
  const vscode = require('vscode');
  const log = (what) => console.log(`[web-extension] ${what}`);
  const until = async (what, probe, ms = 90000) => {
    const end = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const ext = vscode.extensions.getExtension('cloud-config-merge.cloud-config-merge');
  if (!ext) throw new Error('the extension is not installed');
  const [uri] = await vscode.workspace.findFiles('10-base.yaml');
  if (!uri) throw new Error('10-base.yaml is not in the workspace');
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  const api = await until('activation', async () => (ext.isActive ? ext.exports : undefined));
  log(`activated in ${api.activationMs.toFixed(1)} ms; in a worker: ${typeof WorkerGlobalScope !== 'undefined'}`);
  await api.startServer().catch((e) => {
    throw new Error(`the language server did not start: ${e && e.stack ? e.stack : e}`);
  });
  const diagnostics = await until('diagnostics', async () => {
    const found = vscode.languages.getDiagnostics(uri);
    return found.length ? found : undefined;
  });
  const codes = diagnostics.map((d) => `${d.range.start.line + 1}:${typeof d.code === 'object' ? d.code.value : d.code}`);
  log(`diagnostics ${JSON.stringify(codes)}`);
  if (!codes.some((c) => c.startsWith('2:'))) throw new Error(`no diagnostic on the merge_how line: ${codes.join(', ')}`);
  await vscode.commands.executeCommand('cloudConfigMerge.preview', uri, [uri]);
  const preview = await until('the preview', async () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'cloud-config-merge-preview' && d.getText().includes('what cloud-init writes')));
  log(`preview ${JSON.stringify(preview.getText().slice(preview.getText().indexOf('# ---- what cloud-init writes ----')))}`);
  if (!preview.getText().includes('- echo base')) throw new Error('the preview lacks the part\'s runcmd');
};
