/**
 * Hand-written cases for the faces-agree suite: small, shaped as people write them. Each case lives in its
 * own folder of the one workspace (harness.ts); set cases are named after the case in cloud-config-merge.yaml.
 */
import { mime } from '../lsp/fixtures';
import type { Case } from './harness';

const WEB_BASE = `#cloud-config
users:
  - default
  - name: web
    groups: [wheel]
packages: [nginx, git]
runcmd:
  - systemctl enable --now nginx
`;

const WEB_APP = `#cloud-config
runcmd:
  - [sh, -c, 'echo ready > /run/app']
write_files:
  - path: /srv/www/index.html
    owner: web
    content: hello
`;

const TEMPLATE = `## template: jinja
#cloud-config
hostname: {{ v1.local_hostname }}
runcmd:
  - echo "region {{ v1.region }}"
`;

const NETWORK_V2 = `network:
  version: 2
  ethernets:
    eth0:
      dhcp4: true
`;

const NETWORK_V2_BAD = `network:
  version: 2
  ethernets:
    eth0:
      dhcp4: maybe
`;

export const FIXTURES: Case[] = [
  {
    name: 'web-rhel8',
    kind: 'set',
    files: { 'web-rhel8/10-base.yaml': WEB_BASE, 'web-rhel8/20-app.yaml': WEB_APP },
    set: { files: ['web-rhel8/10-base.yaml', 'web-rhel8/20-app.yaml'], image: 'rhel-8' },
  },
  {
    name: 'web-default-image',
    kind: 'set',
    files: { 'web-default-image/10-base.yaml': WEB_BASE, 'web-default-image/20-app.yaml': WEB_APP.replace('owner: web', 'owner: root') },
    set: { files: ['web-default-image/10-base.yaml', 'web-default-image/20-app.yaml'] },
  },
  {
    name: 'old-image-source',
    kind: 'set',
    files: { 'old-image-source/files.yaml': '#cloud-config\nwrite_files:\n  - path: /etc/app.conf\n    source:\n      uri: https://example.com/app.conf\n' },
    set: { files: ['old-image-source/files.yaml'], image: 'debian-12' },
  },
  {
    name: 'jinja-with-data',
    kind: 'set',
    files: {
      'jinja-with-data/10-template.yaml': TEMPLATE,
      'jinja-with-data/20-over.yaml': '#cloud-config\nmerge_how: dict(no_replace)+list()+str()\nhostname: fallback\n',
      'jinja-with-data/instance.json': '{"v1": {"local_hostname": "web-01", "region": "eu-west-1", "cloud_name": "aws"}}\n',
    },
    set: { files: ['jinja-with-data/10-template.yaml', 'jinja-with-data/20-over.yaml'], instanceData: 'jinja-with-data/instance.json' },
  },
  {
    name: 'jinja-without-data',
    kind: 'set',
    files: { 'jinja-without-data/10-template.yaml': TEMPLATE, 'jinja-without-data/20-plain.yaml': '#cloud-config\npackages: [htop]\n' },
    set: { files: ['jinja-without-data/10-template.yaml', 'jinja-without-data/20-plain.yaml'] },
  },
  {
    name: 'include-map',
    kind: 'set',
    files: {
      'include-map/user-data.txt': '#include\nhttps://config.example.com/base.yaml\n',
      'include-map/base.yaml': '#cloud-config\nntp:\n  enabled: true\n  servers: [ntp.example.com]\nruncmd: [echo included]\n',
      'include-map/20-local.yaml': '#cloud-config\nruncmd: [echo local]\n',
    },
    set: { files: ['include-map/user-data.txt', 'include-map/20-local.yaml'], includeMap: { 'https://config.example.com/base.yaml': 'include-map/base.yaml' } },
    diagnosed: ['include-map/user-data.txt', 'include-map/20-local.yaml'],
  },
  {
    name: 'seed-good',
    kind: 'set',
    files: {
      'seed-good/user-data': '#cloud-config\nhostname: web-01\nruncmd: [echo user]\npackages: [curl]\n',
      'seed-good/vendor-data': '#cloud-config\nruncmd: [echo vendor]\npackages: [vim]\n',
      'seed-good/meta-data': 'instance-id: iid-web-01\nlocal-hostname: web-01\n',
      'seed-good/network-config': NETWORK_V2,
    },
    set: { seed: 'seed-good' },
  },
  {
    name: 'seed-bad',
    kind: 'set',
    files: {
      'seed-bad/user-data': '#cloud-config\nruncmd: 5\n',
      'seed-bad/meta-data': 'instance_id: iid-01\nlocal-hostname: db\n',
      'seed-bad/network-config': NETWORK_V2_BAD,
    },
    set: { seed: 'seed-bad' },
  },
  {
    name: 'seed-folder',
    kind: 'seed',
    seed: 'seed-folder',
    files: {
      'seed-folder/user-data': '#cloud-config\nruncmd: [echo user]\nssh_pwauth: false\n',
      'seed-folder/vendor-data': '#cloud-config\nruncmd: [echo vendor]\nssh_pwauth: true\npackages: [vim]\n',
      'seed-folder/meta-data': 'instance-id: iid-folder\nlocal-hostname: folder\n',
      'seed-folder/network-config': 'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets: [{type: dhcp}]\n',
    },
  },
  {
    name: 'mime-set',
    kind: 'set',
    files: {
      'mime-set/user-data.mime': mime([
        { headers: ['Merge-Type: list(append)+dict(no_replace,recurse_list)+str()'], body: '#cloud-config\nruncmd:\n  - echo one\npackages: [jq]\n' },
        { body: '#cloud-config\nruncmd:\n  - echo two\n' },
        { type: 'text/x-shellscript; charset="us-ascii"', body: '#!/bin/bash\necho done > /tmp/done\n' },
      ]),
      'mime-set/late.yaml': '#cloud-config\nmerge_how: list(append)+dict(recurse_array)+str()\nruncmd: [echo late]\n',
    },
    set: { files: ['mime-set/user-data.mime', 'mime-set/late.yaml'] },
  },
  {
    name: 'confd-net',
    kind: 'confd',
    files: {
      'confd-net/etc/cloud/cloud.cfg.d/90_dpkg.cfg': '# to update this file, run dpkg-reconfigure cloud-init\ndatasource_list: [ NoCloud, ConfigDrive, None ]\n',
      'confd-net/etc/cloud/cloud.cfg.d/95_users.cfg': 'merge_how: list(append)+dict(recurse_list)+str()\nsystem_info:\n  default_user:\n    name: admin\n',
      'confd-net/etc/cloud/cloud.cfg.d/99_network.cfg': 'network:\n  version: 2\n  ethernets:\n    eth0:\n      dhcp4: maybe\n',
    },
    args: ['confd-net/etc/cloud/cloud.cfg.d/90_dpkg.cfg', 'confd-net/etc/cloud/cloud.cfg.d/95_users.cfg', 'confd-net/etc/cloud/cloud.cfg.d/99_network.cfg'],
  },
  {
    name: 'confd-datasource',
    kind: 'confd',
    files: {
      'confd-ds/etc/cloud/cloud.cfg.d/10_a.cfg': 'datasource_list: [Ec2, None]\nruncmd: 7\n',
      'confd-ds/etc/cloud/cloud.cfg.d/20_b.cfg': 'datasource_list: [NoCloud, None]\n',
    },
    args: ['confd-ds/etc/cloud/cloud.cfg.d/10_a.cfg', 'confd-ds/etc/cloud/cloud.cfg.d/20_b.cfg'],
  },
  {
    name: 'lone-lint',
    kind: 'lone',
    files: { 'lone-lint/web.yaml': "#cloud-config\nmerge_how: 'list(append)+dict(no_replace)+str()'\nruncmd: [echo a]\nusers:\n  - name: app\n" },
    args: ['lone-lint/web.yaml'],
  },
  {
    // Ubuntu autoinstall: Subiquity's verdict and the mistakes it lets through, as user-data and as the media file.
    name: 'lone-autoinstall',
    kind: 'lone',
    files: { 'lone-autoinstall/user-data': "#cloud-config\nautoinstall:\n  version: 1\n  keyboard: {layout: en}\n  identity: {hostname: h, username: ubuntu, password: secret}\n  late-commands: [apt-get install -y vim]\n  early-coomands: [ls]\npackages: [vim]\n" },
    args: ['lone-autoinstall/user-data'],
  },
  {
    name: 'lone-owner',
    kind: 'lone',
    files: { 'lone-owner/app.yaml': '#cloud-config\nusers:\n  - default\n  - name: app\nwrite_files:\n  - path: /etc/app.conf\n    owner: app\n    content: x\n' },
    args: ['lone-owner/app.yaml'],
  },
  {
    name: 'lone-mime',
    kind: 'lone',
    files: {
      'lone-mime/multipart.txt': mime([
        { type: 'text/plain; charset="utf-8"', headers: ['X-Merge-Type: list(append)+dict(recurse_array)+str()'], body: '#cloud-config\nwrite_files:\n  - path: /etc/motd\n    content: hello\n' },
        { type: 'text/plain; charset="utf-8"', headers: ['X-Merge-Type: list(append)+dict(recurse_array)+str()'], body: '#cloud-config\nruncmd: [date]\n' },
      ]),
    },
    args: ['lone-mime/multipart.txt'],
  },
  {
    name: 'lone-jinja',
    kind: 'lone',
    files: { 'lone-jinja/user-data.yaml': TEMPLATE },
    args: ['lone-jinja/user-data.yaml'],
  },
  {
    name: 'lone-schema',
    kind: 'lone',
    files: { 'lone-schema/bad.yaml': '#cloud-config\nruncmd: 5\npackages: nginx\nssh_authorized_keys: ssh-rsa AAAA\n' },
    args: ['lone-schema/bad.yaml'],
  },
  {
    name: 'network-v1-typo',
    kind: 'network',
    files: { 'network-v1/network-config': 'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n      - type: static\n        adress: 10.0.0.2/24\n' },
    args: ['network-v1/network-config'],
  },
  {
    name: 'network-v2-bad',
    kind: 'network',
    files: { 'network-v2/network-config': NETWORK_V2_BAD },
    args: ['network-v2/network-config'],
  },
];
