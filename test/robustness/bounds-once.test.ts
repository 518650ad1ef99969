// Issue 43: work done once. `--check` of a network-config FILE validated (and loaded) the file twice, once
// for its verdict and once for the document's own findings (a 26 MB file: 2 × 12 s); the editor's hover on
// a meta-data key read the file again on every request (a million-item instance-id: 3 s of CPU per hover,
// an alias bomb's: 0.75 s). Each is counted here with a spy on the one function that does the work, on the
// hostile inputs themselves, with what the user sees (the limit named, in a diagnostic and in the hover).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { MarkupContent } from 'vscode-languageserver-protocol';
import { fixtureUri } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';
import { runCli } from '../support/cli';
import { tempDir } from './harness';
import { billionLaughs } from './corpusKit';

// The modules themselves (require), not the copies `import * as` makes: the patch must be seen by their users.
const validate = require('../../server/src/engine/network/validate') as Record<string, unknown>;
const metaData = require('../../server/src/engine/seed/metaData') as Record<string, unknown>;
const load = require('../../server/src/engine/yaml/load') as Record<string, unknown>;

/** Runs `body` with `module[name]` counting its calls; the count. */
async function counting(module: Record<string, unknown>, name: string, body: () => unknown): Promise<number> {
  const original = module[name] as (...args: unknown[]) => unknown;
  let calls = 0;
  module[name] = (...args: unknown[]) => {
    calls++;
    return original(...args);
  };
  try {
    await body();
  } finally {
    module[name] = original;
  }
  return calls;
}

const v2Routes = (n: number) => `version: 2\nethernets:\n  eth0:\n    dhcp4: true\n    routes:\n${Array.from({ length: n }, (_, i) => `      - to: 10.0.${(i >> 8) & 255}.${i & 255}/32\n        via: 192.168.0.1\n`).join('')}`;

describe('issue 43: a network-config FILE is validated once by --check', () => {
  for (const [name, text, args, stdout] of [
    ['v2 with 2,000 routes (api host)', v2Routes(2000), ['--netplan', 'api'], /^Valid schema .*network-config$/m],
    ['v1, invalid', 'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n      - type: nonsense\n', [], /^Invalid /m],
  ] as const) {
    test(name, async () => {
      const { dir, cleanup } = tempDir();
      try {
        const file = path.join(dir, 'network-config');
        writeFileSync(file, text);
        let run: ReturnType<typeof runCli> | undefined;
        const calls = await counting(validate, 'validateNetworkConfigText', () => (run = runCli(['--check', ...args, file])));
        assert.match(run!.stdout, stdout, run!.stderr);
        assert.equal(calls, 1, 'validated (and loaded) once, for the verdict and the findings');
      } finally {
        cleanup();
      }
    });
  }
});

describe('issue 43: --check --image all loads the document as often as one image does', () => {
  test('nine images, seven runs: the analyses share the YAML load (a 5 MB file: 0.8 s an image)', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'user-data.yaml');
      writeFileSync(file, '#cloud-config\npackages: [nginx]\nwrite_files:\n  - path: /x\n    source: {uri: "http://x"}\n');
      const loads = async (image: string) => {
        let run: ReturnType<typeof runCli> | undefined;
        const n = await counting(load, 'loadYaml', () => (run = runCli(['--check', '--image', image, file])));
        assert.match(run!.stdout, image === 'all' ? /^Which images accept this: / : /^Valid schema /, run!.stderr);
        return n;
      };
      const one = await loads('ubuntu-24.04');
      const all = await loads('all');
      // (22.4 and 23.4 load a part's tags as they did: one load more for them)
      assert.ok(all <= one + 1, `--image all: ${all} loads, one image: ${one}`);
    } finally {
      cleanup();
    }
  });
});

describe("issue 43: the meta-data hover answers from the analysis (the file is read once), over a limit too", () => {
  let client: FeatureClient;
  let counter = 0;
  before(async () => {
    client = await FeatureClient.start();
  });
  after(async () => {
    await client.stop();
  });

  const cases = [
    { name: 'an ordinary file', text: 'instance-id: iid-web-01\nlocal-hostname: web-1\n', hover: /What NoCloud makes of this file: instance-id 'iid-web-01', hostname 'web-1'/, limit: false },
    {
      name: 'instance-id an alias bomb (10^8 items)',
      text: `${billionLaughs(8)}instance-id: *l8\nlocal-hostname: web-01\n`,
      hover: /What NoCloud makes of this file is not reproduced here: meta-data's instance-id is a list whose str\(\) \(shared references expanded\) would be longer than 5000000 characters.*maxExpandedNodes = 5000000/,
      limit: true,
    },
    {
      name: 'instance-id a list of a million items',
      text: `local-hostname: web-01\ninstance-id: [${Array(1_000_000).fill('ab').join(', ')}]\n`,
      hover: /What NoCloud makes of this file is not reproduced here: meta-data's instance-id is a list whose str\(\) would be longer than 5000000 characters: over the limit maxExpandedNodes = 5000000/,
      limit: true,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const uri = fixtureUri(`bounds-once-${counter++}/seed/meta-data`);
      const line = c.text.split('\n').findIndex((l) => l.startsWith('instance-id'));
      let hover = '';
      let diagnostics: Awaited<ReturnType<FeatureClient['open']>> = [];
      const reads = await counting(metaData, 'readMetaData', async () => {
        diagnostics = await client.open(uri, c.text);
        for (let i = 0; i < 3; i++) hover = ((await client.hover(uri, { line, character: 3 }))?.contents as MarkupContent | undefined)?.value ?? '';
      });
      client.close(uri);
      assert.equal(reads, 1, 'read by the analysis, not again by each hover');
      assert.match(hover, /^\*\*`instance-id`\*\*: NoCloud meta-data/);
      assert.match(hover, c.hover);
      const limits = diagnostics.filter((d) => d.code === 'limit-exceeded');
      assert.equal(limits.length, c.limit ? 1 : 0, JSON.stringify(diagnostics.map((d) => d.code)));
      if (c.limit) assert.match(limits[0].message as string, /maxExpandedNodes = 5000000/);
    });
  }
});
