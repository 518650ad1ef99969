/**
 * A bare NoCloud `user-data` opens as YAML (the extension associates the name), but a seed's user-data is
 * as often a shell script or a MIME multipart: the editor gives those their own language (common/detect
 * bareSeedLanguage; the client applies it once, when the file opens).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bareSeedLanguage } from '../../common/detect';

test('a bare user-data that is a shell script, boothook, part handler or MIME gets its own language', () => {
  assert.equal(bareSeedLanguage('/seed/user-data', '#!/bin/bash\necho hi: there\n'), 'shellscript');
  assert.equal(bareSeedLanguage('/seed/vendor-data', '  #!/bin/sh\n'), 'shellscript');
  assert.equal(bareSeedLanguage('/seed/vendor-data2', '#cloud-boothook\n#!/bin/sh\necho x\n'), 'shellscript');
  assert.equal(bareSeedLanguage('C:\\seed\\user-data', '#part-handler\ndef list_types():\n    return []\n'), 'python');
  assert.equal(bareSeedLanguage('/seed/user-data', 'Content-Type: multipart/mixed; boundary="B"\nMIME-Version: 1.0\n\n--B\n'), 'plaintext');
});

test('YAML stays YAML: cloud-config, archive, include lists, templates, and files not named as seeds', () => {
  assert.equal(bareSeedLanguage('/seed/user-data', '#cloud-config\nruncmd: [ls]\n'), null);
  assert.equal(bareSeedLanguage('/seed/user-data', '#cloud-config-archive\n- type: text/x-shellscript\n'), null);
  assert.equal(bareSeedLanguage('/seed/user-data', '#include\nhttps://example.com/a\n'), null);
  assert.equal(bareSeedLanguage('/seed/user-data', '## template: jinja\n#cloud-config\n'), null);
  assert.equal(bareSeedLanguage('/seed/meta-data', '#!/bin/bash\n'), null);
  assert.equal(bareSeedLanguage('/seed/user-data.yaml', '#!/bin/bash\n'), null);
  assert.equal(bareSeedLanguage('/seed/my-user-data', '#!/bin/bash\n'), null);
});
