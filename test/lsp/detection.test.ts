// Which files are cloud-init documents, decided once (common/detect.ts) for the VS Code client and the
// language server. They used to disagree: the client wanted `#cloud-config` exactly, on the first
// line, and took a byte-order mark for nothing; the server followed cloud-init (blank lines first,
// any case) but called a multipart without MIME-Version MIME and ignored a plain-text user-data
// file. Each row runs through the client's two paths (an open editor's start; a file's bytes on
// disk), the running server (documentInfo) and the engine's user-data processing, and must match
// what cloud-init does with that start: the part types are the oracle's (oracle.py --report, the
// same for 22.4 and current).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DetectedDocument, DocumentKind, detectCloudInitDocument, detectionTextFrom, detectionTextOfBytes } from '../../common/detect';
import { DocumentInfoRequest, DocumentInfoResult } from '../../server/src/protocol';
import { processUserData } from '../../server/src/engine/userdata/process';
import { LspClient, fixtureUri } from '../support/lspClient';

const BODY = 'runcmd: [x]\n';
const MIME_BODY = '\n--B\nContent-Type: text/cloud-config\n\nruncmd: [x]\n--B--\n';

interface Row {
  name: string;
  text: string;
  /** What the editor and the server take the document for. */
  kind: DocumentKind | null;
  /** The content type cloud-init gives the (first) part it finds, null when it finds none (an include). */
  partType: string | null;
}

const ROWS: Row[] = [
  { name: '#cloud-config', text: '#cloud-config\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'capitals', text: '#Cloud-Config\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'upper case', text: '#CLOUD-CONFIG\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'a blank line first', text: '\n#cloud-config\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'CRLF blank lines first', text: '\r\n\r\n#cloud-config\r\n' + BODY.replace('\n', '\r\n'), kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'indented', text: '  #cloud-config\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'a tab first (the YAML then fails)', text: '\t#cloud-config\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: '\\x1c first: Python whitespace, not JavaScript\'s', text: '\x1c#cloud-config\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'a no-break space first', text: '\u00a0#cloud-config\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: '5,000 blank lines first', text: '\n'.repeat(5000) + '#cloud-config\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'a byte-order mark first: not whitespace for Python', text: '\ufeff#cloud-config\n' + BODY, kind: null, partType: 'text/x-not-multipart' },
  { name: 'a prefix, not a word: #cloud-configX', text: '#cloud-configX\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: 'a comment after the header', text: '#cloud-config # mine\n' + BODY, kind: 'cloud-config', partType: 'text/cloud-config' },
  { name: '# cloud-config (a space after #)', text: '# cloud-config\n' + BODY, kind: null, partType: 'text/x-not-multipart' },
  { name: '#Cloud-Config-Archive', text: '#Cloud-Config-Archive\n- content: "#cloud-config\\nruncmd: [x]\\n"\n', kind: 'cloud-config-archive', partType: 'text/cloud-config' },
  { name: '#cloud-config-jsonp', text: '#cloud-config-jsonp\n[{"op": "add", "path": "/runcmd", "value": ["x"]}]\n', kind: 'cloud-config-jsonp', partType: 'text/cloud-config-jsonp' },
  { name: '#INCLUDE', text: '#INCLUDE\n', kind: 'include', partType: null },
  { name: '#include-once', text: '#include-once\n', kind: 'include', partType: null },
  { name: '## template: jinja', text: '## template: jinja\n#cloud-config\n' + BODY, kind: 'jinja', partType: 'text/jinja2' },
  { name: '## Template: Jinja', text: '## Template: Jinja\n#cloud-config\n' + BODY, kind: 'jinja', partType: 'text/jinja2' },
  { name: '##template:jinja (not the prefix)', text: '##template:jinja\n#cloud-config\n' + BODY, kind: null, partType: 'text/x-not-multipart' },
  { name: 'MIME', text: 'Content-Type: multipart/mixed; boundary="B"\nMIME-Version: 1.0\n' + MIME_BODY, kind: 'mime', partType: 'text/cloud-config' },
  { name: 'MIME in lower case', text: 'content-type: multipart/mixed; boundary="B"\nmime-version: 1.0\n' + MIME_BODY, kind: 'mime', partType: 'text/cloud-config' },
  { name: 'a multipart without MIME-Version', text: 'Content-Type: multipart/mixed; boundary="B"\n' + MIME_BODY, kind: null, partType: 'text/x-not-multipart' },
  { name: '"MIME-Version :" (a space before the colon)', text: 'Content-Type: multipart/mixed; boundary="B"\nMIME-Version : 1.0\n' + MIME_BODY, kind: null, partType: 'text/x-not-multipart' },
  { name: 'a shell script', text: '#!/bin/sh\necho x\n', kind: null, partType: 'text/x-shellscript' },
  { name: 'a boothook', text: '#cloud-boothook\necho x\n', kind: null, partType: 'text/cloud-boothook' },
  { name: 'empty', text: '', kind: null, partType: 'text/x-not-multipart' },
];

/** The client, for a document open in an editor: reads the start through detectionTextFrom, as documents.ts does with the TextDocument. */
function clientEditor(text: string, path: string, languageId: string): DetectedDocument | null {
  const read = (chars?: number) => (chars === undefined ? text : text.slice(0, chars));
  return detectCloudInitDocument(detectionTextFrom(read), path, languageId);
}

/** The client, for a file on disk (the preview's file list): its bytes, a byte-order mark kept. */
function clientDisk(text: string, path: string): DetectedDocument | null {
  return detectCloudInitDocument(detectionTextOfBytes(new TextEncoder().encode(text)), path);
}

let server: LspClient;
let counter = 0;

async function serverKind(text: string, path: string, languageId: string): Promise<string | null> {
  const uri = fixtureUri(`detection-${counter++}/${path}`);
  server.openNoWait(uri, text, languageId);
  const result = await server.request<DocumentInfoResult>(DocumentInfoRequest.method, { uri });
  server.close(uri);
  return result.kind;
}

describe('what is a cloud-init document: client, server and cloud-init agree', () => {
  before(async () => {
    server = await LspClient.start();
  });
  after(async () => {
    await server.stop();
  });

  for (const row of ROWS) {
    test(`${row.name}: ${row.kind ?? 'not a cloud-init document'}`, async () => {
      // The merge: how cloud-init's user-data processing types the part.
      const processed = processUserData([{ name: 'user-data', bytes: new TextEncoder().encode(row.text) }]);
      assert.equal(processed.parts[0]?.contentType ?? null, row.partType, 'the part type cloud-init gives it');
      // A YAML editor, and a plain-text `user-data` file (the client sends both to the server).
      for (const [path, languageId] of [['user-data.yaml', 'yaml'], ['user-data', 'plaintext']]) {
        assert.equal(clientEditor(row.text, `/work/${path}`, languageId)?.kind ?? null, row.kind, `client, open ${languageId} editor`);
        assert.equal(await serverKind(row.text, path, languageId), row.kind, `server, ${languageId}`);
      }
      assert.equal(clientDisk(row.text, '/work/user-data.yaml')?.kind ?? null, row.kind, 'client, file on disk');
    });
  }

  test('a Jinja template whose header ends the first 4,096 characters: the client reads on to what follows', async () => {
    const text = ' '.repeat(4080) + '## template: jinja\n' + '\n'.repeat(3) + '#cloud-config\n' + BODY;
    assert.deepEqual(clientEditor(text, '/work/t.yaml', 'yaml'), { kind: 'jinja', renderedKind: 'cloud-config' });
    assert.deepEqual(clientDisk(text, '/work/t.yaml'), { kind: 'jinja', renderedKind: 'cloud-config' });
    assert.equal(await serverKind(text, 't.yaml', 'yaml'), 'jinja');
  });

  test('system configuration is found by its path, whatever its start', async () => {
    for (const text of ['datasource_list: [NoCloud]\n', 'MIME-Version: 1.0\na: 1\n', '\ufeffa: 1\n']) {
      assert.equal(clientEditor(text, '/etc/cloud/cloud.cfg.d/90-x.cfg', 'yaml')?.kind, 'confd');
      assert.equal(await serverKind(text, 'etc/cloud/cloud.cfg.d/90-x.cfg', 'yaml'), 'confd');
      assert.equal(clientEditor(text, '/etc/cloud/cloud.cfg', 'yaml')?.kind, 'cloud-cfg');
      assert.equal(await serverKind(text, 'etc/cloud/cloud.cfg', 'yaml'), 'cloud-cfg');
    }
  });
});
