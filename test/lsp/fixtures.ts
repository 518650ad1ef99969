/** Documents a cloud-init user would write, shared by the LSP tests. */
import { gzipSync } from 'node:zlib';

export const APPEND_LISTS = 'list(append)+dict(no_replace,recurse_list)+str()';

/** A MIME multipart user-data with one part per entry (headers without Content-Type get text/cloud-config). */
export function mime(parts: Array<{ headers?: string[]; body: string; type?: string }>, boundary = '===============7330845974216740156=='): string {
  const lines = [`Content-Type: multipart/mixed; boundary="${boundary}"`, 'MIME-Version: 1.0', ''];
  for (const part of parts) {
    lines.push(`--${boundary}`);
    lines.push(`Content-Type: ${part.type ?? 'text/cloud-config; charset="us-ascii"'}`, 'MIME-Version: 1.0', 'Content-Transfer-Encoding: 7bit', ...(part.headers ?? []), '');
    lines.push(part.body.replace(/\n$/, ''));
  }
  lines.push(`--${boundary}--`, '');
  return lines.join('\n');
}

export function gzipBase64(text: string): string {
  return gzipSync(Buffer.from(text)).toString('base64');
}

/** A web server part, as people write them. */
export const WEB_SERVER = `#cloud-config
package_update: true
packages:
  - nginx
  - git
write_files:
  - path: /etc/nginx/sites-available/app
    permissions: '0644'
    content: |
      server {
        listen 80;
        # include the app's locations
        include /etc/nginx/app.d/*.conf;
      }
runcmd:
  - systemctl enable --now nginx
`;

/** Documents that are right as they are: no diagnostics at all. */
export const VALID_DOCUMENTS: Array<{ name: string; path: string; text: string; languageId?: string; settings?: Record<string, unknown> }> = [
  { name: 'a plain cloud-config without a spec', path: 'valid/web.yaml', text: WEB_SERVER },
  {
    name: 'the append-lists recipe (string form)',
    path: 'valid/append.yaml',
    text: `#cloud-config\nmerge_how: '${APPEND_LISTS}'\npackages:\n  - htop\nruncmd:\n  - [sh, -c, 'echo "second part" >> /var/log/parts.log']\n`,
  },
  {
    name: 'keep earlier values',
    path: 'valid/keep.yaml',
    text: '#cloud-config\nmerge_how: dict(no_replace)+list()+str()\nhostname: web-01\ntimezone: Europe/Berlin\n',
  },
  { name: 'the user-data default written out', path: 'valid/replace.yaml', text: '#cloud-config\nmerge_how: "dict(replace)+list()+str()"\nssh_pwauth: false\n' },
  {
    name: 'the list form',
    path: 'valid/list-form.yaml',
    text: `#cloud-config
merge_how:
  - name: list
    settings: [append]
  - name: dict
    settings: [no_replace, recurse_list]
  - name: str
    settings: []
users:
  - default
  - name: deploy
    groups: [sudo]
    shell: /bin/bash
    sudo: ALL=(ALL) NOPASSWD:ALL
`,
  },
  {
    name: 'merge_type on its own',
    path: 'valid/merge-type.yaml',
    text: `#cloud-config\nmerge_type: 'list(append)+dict(recurse_array)+str()'\nbootcmd:\n  - echo early\n`,
  },
  {
    name: 'dashes and capitals in the string form',
    path: 'valid/dashes.yaml',
    text: '#cloud-config\nmerge_how: List(Append)+Dict(No-Replace,Recurse-List)+Str()\nruncmd: [ls]\n',
  },
  {
    name: 'a MIME multipart with Merge-Type on every part',
    path: 'valid/multipart.txt',
    text: mime([
      { headers: [`Merge-Type: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd:\n  - echo one\n' },
      { headers: [`Merge-Type: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd:\n  - echo two\npackages: [jq]\n' },
      { type: 'text/x-shellscript; charset="us-ascii"', body: '#!/bin/bash\necho "done" > /tmp/done\n' },
    ]),
  },
  {
    name: 'Terraform-style X-Merge-Type on text/plain parts',
    path: 'valid/terraform.txt',
    text: mime([
      { type: 'text/plain; charset="utf-8"', headers: ['X-Merge-Type: list(append)+dict(recurse_array)+str()'], body: '#cloud-config\nwrite_files:\n  - path: /etc/motd\n    content: hello\n' },
      { type: 'text/plain; charset="utf-8"', headers: ['X-Merge-Type: list(append)+dict(recurse_array)+str()'], body: '#cloud-config\nruncmd: [date]\n' },
    ]),
  },
  { name: 'a cloud.cfg.d drop-in', path: 'etc/cloud/cloud.cfg.d/90_dpkg.cfg', text: '# to update this file, run dpkg-reconfigure cloud-init\ndatasource_list: [ NoCloud, ConfigDrive, OpenStack, Ec2, None ]\n' },
  { name: 'cloud.cfg with a spec', path: 'etc/cloud/cloud.cfg', text: 'users:\n  - default\nmerge_how: list(append)+dict(recurse_list)+str()\ncloud_init_modules:\n  - seed_random\n' },
  {
    name: 'a jinja template, checked with instance data (without, an information says it is not rendered)',
    path: 'valid/template.yaml',
    settings: { instanceData: 'aws' },
    text: `## template: jinja\n#cloud-config\nmerge_how: ${APPEND_LISTS}\nhostname: {{ v1.local_hostname }}\n{% if v1.region == 'eu-west-1' %}\nntp:\n  servers: [ntp.eu.example.com]\n{% endif %}\n`,
  },
  { name: 'an include file', path: 'valid/include.txt', text: '#include\nhttps://example.com/base.yaml\nfile:///srv/user-data/extra.yaml\n' },
  { name: 'a cloud-config-archive', path: 'valid/archive.yaml', text: `#cloud-config-archive\n- type: text/cloud-config\n  Merge-Type: ${APPEND_LISTS}\n  content: |\n    #cloud-config\n    runcmd: [uptime]\n` },
  { name: 'header lines inside write_files content are content', path: 'valid/embedded.yaml', text: '#cloud-config\nwrite_files:\n  - path: /var/lib/seed/user-data\n    content: |\n      #cloud-config\n      #include https://example.com/x\n      runcmd: [id]\n' },
  { name: 'CRLF line endings', path: 'valid/crlf.yaml', text: `#cloud-config\r\nmerge_how: ${APPEND_LISTS}\r\npackages:\r\n  - curl\r\n` },
  { name: 'an ordinary YAML file is not ours', path: 'valid/docker-compose.yaml', text: 'services:\n  web:\n    image: nginx\n    merge_how: whatever\n' },
];
