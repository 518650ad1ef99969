// The extension manifest's promises about untrusted workspaces: a workspace's own settings cannot
// make the extension load code, read outside the workspace, or lift the resource limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_LIMITS, LIMIT_NAMES } from '../../server/src/engine/limits';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));

test('settings that widen what the extension reads or runs are restricted in untrusted workspaces', () => {
  // instanceData names a file the server reads (anywhere on disk): a workspace must not choose it for an untrusted user.
  const widening = ['cloudConfigMerge.customMergers', 'cloudConfigMerge.includes.allowOutsideWorkspace', 'cloudConfigMerge.instanceData', ...LIMIT_NAMES.map((n) => `cloudConfigMerge.limits.${n}`)];
  const properties = manifest.contributes.configuration.properties;
  const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
  for (const name of widening) {
    assert.ok(properties[name], `${name} is declared`);
    assert.equal(properties[name].restricted, true, `${name} is marked restricted`);
    assert.ok(restricted.includes(name), `${name} is in restrictedConfigurations`);
  }
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
});

test('every limit is a setting whose default is the engine default', () => {
  const properties = manifest.contributes.configuration.properties;
  for (const name of LIMIT_NAMES) {
    assert.equal(properties[`cloudConfigMerge.limits.${name}`]?.default, DEFAULT_LIMITS[name], name);
    assert.equal(properties[`cloudConfigMerge.limits.${name}`]?.minimum, 1, name);
  }
});

test('the README, the walkthrough and the settings name each command as VS Code shows it where they send the user', async () => {
  const { readdirSync } = await import('node:fs');
  const root = path.join(__dirname, '..', '..', '..');
  const commands: Array<{ command: string; title: string; category?: string }> = manifest.contributes.commands;
  const menus: Record<string, Array<{ command: string; when?: string }>> = manifest.contributes.menus;
  // Menus and title bars show a command's title alone; the Command Palette shows "Category: Title".
  const inMenus = new Set(Object.entries(menus).filter(([menu]) => menu !== 'commandPalette').flatMap(([, items]) => items.map((i) => i.command)));
  const explorer = new Set(menus['explorer/context'].map((i) => commands.find((c) => c.command === i.command)?.title));
  const notInPalette = new Set(menus.commandPalette.filter((i) => i.when === 'false').map((i) => i.command));
  const texts: Array<[string, string]> = [
    ['README.md', readFileSync(path.join(root, 'README.md'), 'utf8')],
    ...readdirSync(path.join(root, 'docs/walkthrough')).map((f): [string, string] => [`docs/walkthrough/${f}`, readFileSync(path.join(root, 'docs/walkthrough', f), 'utf8')]),
    ...manifest.contributes.walkthroughs.flatMap((w: { steps: Array<{ id: string; description: string }> }) => w.steps.map((s): [string, string] => [`walkthrough step ${s.id}`, s.description])),
    ...Object.entries(manifest.contributes.configuration.properties).map(([name, p]): [string, string] => [name, String((p as { markdownDescription?: string }).markdownDescription ?? '')]),
  ];
  const problems: string[] = [];
  for (const [where, text] of texts) {
    for (const m of text.matchAll(/\*\*([^*]+)\*\*/g)) {
      const name = m[1].replace(/\s+/g, ' ').replace(/^"|"$/g, '').trim();
      const palette = /^Cloud-Config: (.+)$/.exec(name);
      if (palette) {
        const command = commands.find((c) => c.category === 'Cloud-Config' && c.title === palette[1]);
        if (!command) problems.push(`${where}: **${name}** is no command`);
        else if (notInPalette.has(command.command)) problems.push(`${where}: **${name}** is not in the Command Palette`);
        continue;
      }
      const command = commands.find((c) => c.title === name);
      if (command && !inMenus.has(command.command)) problems.push(`${where}: **${name}** is in no menu or title bar; the Command Palette shows it as **Cloud-Config: ${name}**`);
    }
    for (const m of text.matchAll(/right-click,\s+(?:and choose\s+)?\**([^*.]+)/g)) {
      const item = m[1].replace(/\s+/g, ' ').trim();
      if (!explorer.has(item)) problems.push(`${where}: "right-click, ${item}": the Explorer's context menu shows ${[...explorer].map((t) => `"${t}"`).join(', ')}`);
    }
  }
  assert.deepEqual(problems, []);
});
