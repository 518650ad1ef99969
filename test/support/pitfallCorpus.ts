/**
 * The pitfall corpus (issue 38): for each pitfall code, files shaped like real user-data where the pitfall
 * must fire and where it must not, each with what the boot really does. `test/unit/pitfall-corpus.test.ts`
 * holds our pitfalls to them; `test/oracle/pitfalls.diff.ts` checks each `oracle` claim (the part of the
 * story cloud-init's own code decides: which module runs, in which stage, how often, which users
 * users_groups creates, what it logs) against the oracle's plan.py and oracle.py.
 */
import type { FindingCode } from '../../server/src/engine/findings/codes';

/** What cloud-init decides, as plan.py records it. */
export type OracleClaim =
  /** The row of `module` in `stage`: its decision and, if given, its frequency. */
  | { row: { stage: 'init' | 'config' | 'final'; module: string; decision: string; frequency?: string } }
  /** No stage lists a module (`cc` name without `cc_`). */
  | { unlisted: string }
  /** `first` runs before `then` on the first boot (`stage:module`). */
  | { before: [string, string] }
  /** The users users_groups creates (`ug_util.normalize_users_groups`), exactly. */
  | { users: string[] }
  /** A line run_section or `_fixup_modules` logs in a stage. */
  | { log: { stage: 'init' | 'config' | 'final'; match: RegExp } }
  /** The file as user-data: cloud-init handles no part of it and warns (oracle.py --report). */
  | { unhandled: true };

export interface PitfallCase {
  name: string;
  code: FindingCode;
  /** Whether `code` must be among the pitfalls (at least once) or must not be. */
  fires: boolean;
  /** The user-data files, in order (one unless the case is about a set). */
  files: Array<[string, string]>;
  distro?: string;
  /** A cloud.cfg of the image's own instead of the rendered one. */
  cloudCfg?: string;
  /** Ask for the once-per-instance hints. */
  hints?: boolean;
  /** What the boot really does with it, in words. */
  boot: string;
  message?: RegExp;
  /** The 0-based line of the pitfall, when it fires. */
  line?: number;
  oracle?: OracleClaim[];
}

export const PITFALL_CORPUS: PitfallCase[] = [
  // plan-once-per-instance
  {
    name: 'hostname and fqdn, even with the hints asked for',
    code: 'plan-once-per-instance',
    fires: false,
    hints: true,
    files: [['user-data', '#cloud-config\nhostname: web-01\nfqdn: web-01.example.internal\nprefer_fqdn_over_hostname: true\n']],
    boot: 'set_hostname sets it once per instance, but update_hostname reads hostname and fqdn again on every boot (util.get_hostname_fqdn): an edit takes effect at the next boot',
    oracle: [{ row: { stage: 'init', module: 'update_hostname', decision: 'run', frequency: 'always' } }, { row: { stage: 'init', module: 'set_hostname', decision: 'run', frequency: 'once-per-instance' } }],
  },
  {
    name: 'packages, with the hints not asked for (the default)',
    code: 'plan-once-per-instance',
    fires: false,
    files: [['user-data', '#cloud-config\npackage_update: true\npackages:\n  - nginx\n  - fail2ban\n']],
    boot: 'package_update_upgrade_install installs them once per instance; true of most keys of most files, so said only when asked',
    oracle: [{ row: { stage: 'final', module: 'package_update_upgrade_install', decision: 'run', frequency: 'once-per-instance' } }],
  },
  {
    name: 'packages, with the hints asked for',
    code: 'plan-once-per-instance',
    fires: true,
    hints: true,
    files: [['user-data', '#cloud-config\npackage_update: true\npackages:\n  - nginx\n  - fail2ban\n']],
    boot: 'package_update_upgrade_install runs once per instance: a package added to the list on a running instance is not installed at the next boot',
    message: /package_update_upgrade_install \(final stage\) reads packages once per instance/,
    line: 2,
    oracle: [{ row: { stage: 'final', module: 'package_update_upgrade_install', decision: 'run', frequency: 'once-per-instance' } }],
  },

  // plan-no-default-user
  {
    name: 'a named user and no default',
    code: 'plan-no-default-user',
    fires: true,
    files: [['user-data', '#cloud-config\nusers:\n  - name: deploy\n    groups: [sudo]\n    shell: /bin/bash\n    ssh_authorized_keys:\n      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDeploy deploy@ci\n']],
    boot: 'users_groups creates deploy only; ubuntu is not created, and the SSH key the cloud gives goes to no user (ssh puts it in root\'s file behind a "login as" message)',
    message: /default user ubuntu is not created/,
    line: 1,
    oracle: [{ users: ['deploy'] }],
  },
  {
    name: "the image's default user created by name, with keys",
    code: 'plan-no-default-user',
    fires: false,
    files: [['user-data', '#cloud-config\nusers:\n  - name: ubuntu\n    sudo: ALL=(ALL) NOPASSWD:ALL\n    ssh_authorized_keys:\n      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIUbuntu me@laptop\n']],
    boot: 'users_groups creates ubuntu with the keys the file gives: the user the warning would miss is there',
    oracle: [{ users: ['ubuntu'] }],
  },
  {
    name: 'a mapping without name is the default user',
    code: 'plan-no-default-user',
    fires: false,
    files: [['user-data', '#cloud-config\nusers:\n  - lock_passwd: false\n    sudo: ALL=(ALL) NOPASSWD:ALL\n']],
    boot: "an entry without name is cloud-init's `default`: users_groups creates ubuntu with these settings",
    oracle: [{ users: ['ubuntu'] }],
  },
  {
    name: 'a user named by a template variable (Terraform templatefile)',
    code: 'plan-no-default-user',
    fires: false,
    files: [['user-data', '#cloud-config\nusers:\n  - name: ${admin_user}\n    ssh_authorized_keys:\n      - ${ssh_public_key}\n']],
    boot: 'the name is filled in before the file reaches cloud-init; whether it is the image\'s default user cannot be told from the file',
  },
  {
    name: 'root only, with disable_root: false (a rescue-image launcher)',
    code: 'plan-no-default-user',
    fires: false,
    files: [['cloud-init.yaml', '#cloud-config\ndatasource_list: [NoCloud, ConfigDrive]\ntimezone: UTC\ndisable_root: false\nssh_pwauth: true\nusers:\n  - name: root\n    lock_passwd: false\n']],
    boot: "ubuntu is not created, as the file asks; ssh's apply_credentials writes the cloud's keys into root's authorized_keys without the \"login as\" prefix, so they log in as root",
    oracle: [{ users: ['root'] }],
  },
  {
    name: 'FreeBSD, whose cloud.cfg keeps root login (disable_root: false)',
    code: 'plan-no-default-user',
    fires: false,
    distro: 'freebsd',
    files: [['user-data', '#cloud-config\nusers:\n  - name: admin\n    ssh_authorized_keys:\n      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAdmin admin@laptop\n']],
    boot: "the image's cloud.cfg sets disable_root: false: ssh writes the cloud's keys into root's authorized_keys, usable; admin gets its own",
    oracle: [{ users: ['admin'] }],
  },
  {
    name: "Raspberry Pi OS: the image's pi user by name",
    code: 'plan-no-default-user',
    fires: false,
    distro: 'raspberry-pi-os',
    files: [['user-data', '#cloud-config\nusers:\n  - name: pi\n    groups: users,adm,dialout,audio,netdev,video,plugdev,cdrom,games,input,gpio,spi,i2c,render,sudo\n    shell: /bin/bash\n    lock_passwd: false\n']],
    boot: "pi is Raspberry Pi OS's default user (its cloud.cfg); users_groups creates it",
    oracle: [{ users: ['pi'] }],
  },

  // plan-home-before-user
  {
    name: 'a file under a homedir of the file\'s own, before the user exists',
    code: 'plan-home-before-user',
    fires: true,
    files: [['user-data', '#cloud-config\nusers:\n  - default\n  - name: alerts\n    homedir: /var/lib/alerts\n    shell: /bin/bash\nwrite_files:\n  - path: /var/lib/alerts/.config/alertmanager.yml\n    content: |\n      route:\n        receiver: ops\n']],
    boot: 'write_files writes /var/lib/alerts/... in the init stage, before users_groups runs useradd --home /var/lib/alerts -m: the directory exists, owned by root, and gets no skeleton',
    message: /\/var\/lib\/alerts\/\.config\/alertmanager\.yml is written by write_files .* before users_groups .* creates alerts/,
    line: 7,
    oracle: [{ before: ['init:write_files', 'init:users_groups'] }],
  },
  {
    name: 'a file under /home/NAME before NAME exists',
    code: 'plan-home-before-user',
    fires: true,
    files: [['user-data', '#cloud-config\nusers:\n  - default\n  - name: deploy\nwrite_files:\n  - path: /home/deploy/.ssh/config\n    permissions: "0600"\n    content: |\n      Host github.com\n        IdentityFile ~/.ssh/deploy_key\n']],
    boot: 'write_files runs before users_groups: /home/deploy is made by root, useradd then finds it and copies no skeleton',
    line: 5,
    oracle: [{ before: ['init:write_files', 'init:users_groups'] }],
  },
  {
    name: "a file in the image's default user's home, with no users key",
    code: 'plan-home-before-user',
    fires: true,
    files: [['user-data', '#cloud-config\nwrite_files:\n  - path: /home/ubuntu/.bashrc\n    append: true\n    content: |\n      alias ll="ls -alF"\n']],
    boot: "the image's cloud.cfg has users: [default], so users_groups creates ubuntu, after write_files made /home/ubuntu as root: no skeleton, a root-owned home",
    message: /\/home\/ubuntu\/\.bashrc is written by write_files .* creates ubuntu/,
    line: 2,
    oracle: [{ users: ['ubuntu'] }, { before: ['init:write_files', 'init:users_groups'] }],
  },
  {
    name: 'the same file with defer: true',
    code: 'plan-home-before-user',
    fires: false,
    files: [['user-data', '#cloud-config\nusers:\n  - default\n  - name: deploy\nwrite_files:\n  - path: /home/deploy/.ssh/config\n    defer: true\n    content: |\n      Host *\n']],
    boot: 'write_files_deferred writes it in the final stage, after users_groups made the home',
    oracle: [{ before: ['init:users_groups', 'final:write_files_deferred'] }],
  },
  {
    name: 'a system user: useradd makes no home',
    code: 'plan-home-before-user',
    fires: false,
    files: [['user-data', '#cloud-config\nusers:\n  - default\n  - name: exporter\n    system: true\n    homedir: /var/lib/exporter\nwrite_files:\n  - path: /var/lib/exporter/config.yml\n    content: "listen: :9100\\n"\n']],
    boot: 'useradd --system makes no home directory (cloud-init passes -M for system users): no skeleton is lost',
  },

  // plan-owner-created-later
  {
    name: 'owned by a user created later',
    code: 'plan-owner-created-later',
    fires: true,
    files: [['user-data', '#cloud-config\nusers:\n  - default\n  - name: app\nwrite_files:\n  - path: /etc/app/app.env\n    owner: app:app\n    permissions: "0640"\n    content: "PORT=8080\\n"\n']],
    boot: 'write_files runs before users_groups: the chown to app fails and the file stays root\'s',
    line: 6,
    oracle: [{ before: ['init:write_files', 'init:users_groups'] }],
  },
  {
    name: "owned by the image's default user, with no users key",
    code: 'plan-owner-created-later',
    fires: true,
    files: [['user-data', '#cloud-config\nwrite_files:\n  - path: /opt/app/config.json\n    owner: ubuntu:ubuntu\n    content: "{}"\n']],
    boot: 'ubuntu comes from the image\'s users: [default] and is created by users_groups after write_files: on the first boot the chown fails',
    line: 3,
    oracle: [{ users: ['ubuntu'] }, { before: ['init:write_files', 'init:users_groups'] }],
  },
  {
    name: 'owned by root',
    code: 'plan-owner-created-later',
    fires: false,
    files: [['user-data', '#cloud-config\nusers:\n  - default\n  - name: app\nwrite_files:\n  - path: /etc/app/app.env\n    owner: root:root\n    content: "PORT=8080\\n"\n']],
    boot: 'root exists before any module runs',
  },

  // plan-defer-never-written
  {
    name: 'defer: true on an image whose lists have no write_files_deferred',
    code: 'plan-defer-never-written',
    fires: true,
    cloudCfg: 'cloud_init_modules: [write_files, users_groups]\ncloud_config_modules: [runcmd]\ncloud_final_modules: [scripts_user]\nsystem_info:\n  distro: debian\n  default_user: {name: admin}\n',
    files: [['user-data', '#cloud-config\nwrite_files:\n  - path: /opt/app/ready\n    defer: true\n    content: ok\n']],
    boot: 'write_files skips deferred entries and no list names write_files_deferred: the file is never written',
    oracle: [{ unlisted: 'write_files_deferred' }],
  },
  {
    name: 'defer: true on the Ubuntu image',
    code: 'plan-defer-never-written',
    fires: false,
    files: [['user-data', '#cloud-config\nwrite_files:\n  - path: /opt/app/ready\n    defer: true\n    content: ok\n']],
    boot: 'write_files_deferred writes it in the final stage',
    oracle: [{ row: { stage: 'final', module: 'write_files_deferred', decision: 'run' } }],
  },

  // plan-key-not-read
  {
    name: 'yum_repos on Ubuntu',
    code: 'plan-key-not-read',
    fires: true,
    files: [['user-data', '#cloud-config\nyum_repos:\n  epel:\n    baseurl: https://download.example.org/epel/9/x86_64\n    enabled: true\n']],
    boot: 'no list of the Ubuntu cloud.cfg names yum_add_repo: the repositories are never written',
    message: /yum_add_repo is in none of this image's module lists/,
    line: 1,
    oracle: [{ unlisted: 'yum_add_repo' }],
  },
  {
    name: 'yum_repos on RHEL',
    code: 'plan-key-not-read',
    fires: false,
    distro: 'rhel',
    files: [['user-data', '#cloud-config\nyum_repos:\n  epel:\n    baseurl: https://download.example.org/epel/9/x86_64\n    enabled: true\n']],
    boot: 'yum_add_repo runs in the config stage',
    oracle: [{ row: { stage: 'config', module: 'yum_add_repo', decision: 'run' } }],
  },
  {
    name: "the file's own cloud_config_modules leaves runcmd out",
    code: 'plan-key-not-read',
    fires: true,
    files: [['user-data', '#cloud-config\ncloud_config_modules:\n  - timezone\n  - ntp\ntimezone: Europe/Berlin\nruncmd:\n  - systemctl restart chrony\n']],
    boot: "the file's list replaces the image's config-stage list: runcmd is not in it, so the commands are never written for scripts_user",
    message: /runcmd is left out of cloud_config_modules \(user-data:2\), which replaces the image's list/,
    line: 5,
    oracle: [{ unlisted: 'runcmd' }],
  },

  // plan-unknown-module
  {
    name: 'a module name from an old release, in the file\'s own list',
    code: 'plan-unknown-module',
    fires: true,
    files: [['user-data', '#cloud-config\ncloud_final_modules:\n  - [apt_update_upgrade, always]\n  - scripts_user\npackages: [htop]\n']],
    boot: 'cloud-init warns "Could not find module named cc_apt_update_upgrade" and skips the entry',
    message: /Could not find module named cc_apt_update_upgrade \(searched \['cc_apt_update_upgrade', 'cloudinit\.config\.cc_apt_update_upgrade'\]\)/,
    line: 2,
    oracle: [{ row: { stage: 'final', module: 'apt_update_upgrade', decision: 'skip_not_found' } }, { log: { stage: 'final', match: /^WARNING: Could not find module named cc_apt_update_upgrade \(searched \['cc_apt_update_upgrade', 'cloudinit\.config\.cc_apt_update_upgrade'\]\)$/ } }],
  },
  {
    name: 'a module list written as a string',
    code: 'plan-unknown-module',
    fires: true,
    files: [['user-data', '#cloud-config\ncloud_final_modules: scripts_user\nruncmd:\n  - systemctl restart app\n']],
    boot: 'cloud-init iterates the string: each character is looked up as a module (cc_s, cc_c, ...), none is found, and the final stage runs nothing, scripts_user included',
    message: /cloud_final_modules is a string, not a list: cloud-init reads each of its characters as a module name \(s, c, r, i, p, t, \.\.\.\)/,
    line: 1,
    oracle: [{ row: { stage: 'final', module: 's', decision: 'skip_not_found' } }, { unlisted: 'scripts_user' }, { log: { stage: 'final', match: /^WARNING: Could not find module named cc_s / } }],
  },
  {
    name: 'a removed module',
    code: 'plan-unknown-module',
    fires: true,
    files: [['user-data', '#cloud-config\ncloud_config_modules:\n  - emit_upstart\n  - runcmd\nruncmd: [echo hi]\n']],
    boot: 'cloud-init logs at INFO that emit_upstart was removed and skips it',
    message: /Module `emit_upstart` has been removed from cloud-init/,
    oracle: [{ row: { stage: 'config', module: 'emit_upstart', decision: 'skip_removed' } }, { log: { stage: 'config', match: /^INFO: Module `emit_upstart` has been removed from cloud-init\. It may be removed from `\/etc\/cloud\/cloud\.cfg`\.$/ } }],
  },
  {
    name: 'dashed and .py names of real modules',
    code: 'plan-unknown-module',
    fires: false,
    files: [['user-data', '#cloud-config\ncloud_config_modules:\n  - write-files\n  - runcmd.py\n  - [ntp, always]\nruncmd: [echo hi]\n']],
    boot: 'form_module_name turns them into cc_write_files, cc_runcmd, cc_ntp: all found',
    oracle: [{ row: { stage: 'config', module: 'runcmd.py', decision: 'run' } }],
  },

  // plan-other-tool
  {
    name: 'a coreos-cloudinit file',
    code: 'plan-other-tool',
    fires: true,
    files: [['user-data', '#cloud-config\n\ncoreos:\n  etcd2:\n    discovery: https://discovery.etcd.io/TOKEN\n    advertise-client-urls: http://$private_ipv4:2379\n  units:\n    - name: etcd2.service\n      command: start\n    - name: fleet.service\n      command: start\nssh_authorized_keys:\n  - ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCore core@host\n']],
    boot: 'cloud-init has no module reading coreos:; on a cloud-init image only ssh_authorized_keys is applied, etcd2 and fleet are never started',
    message: /coreos-cloudinit file/,
    line: 2,
  },
  {
    name: 'an Ignition config',
    code: 'plan-other-tool',
    fires: true,
    files: [['config.ign', '{"ignition":{"version":"3.4.0"},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICore"]}]}}\n']],
    boot: 'cloud-init finds no handler for it (text/x-not-multipart) and configures nothing from it',
    message: /an Ignition config/,
    line: 0,
    oracle: [{ unhandled: true }],
  },
  {
    name: 'a Butane config',
    code: 'plan-other-tool',
    fires: true,
    files: [['config.bu', 'variant: fcos\nversion: 1.5.0\npasswd:\n  users:\n    - name: core\n      ssh_authorized_keys:\n        - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICore\n']],
    boot: 'cloud-init finds no handler for it and configures nothing from it',
    message: /a Butane config/,
    oracle: [{ unhandled: true }],
  },
  {
    name: 'an autoinstall file without #cloud-config',
    code: 'plan-other-tool',
    fires: true,
    files: [['autoinstall.yaml', 'version: 1\nidentity:\n  hostname: ubuntu-server\n  username: ubuntu\n  password: "$6$exDY1mhS4KUYCE/2$zmn9ToZwTKLhCw.b4/b.ZRTIZM30JZ4QrOQ2aOXJ8yk96xpcCof0kxKwuX1kqLG/ygbJ1f8wxED22bTL4F46P0"\nstorage:\n  layout:\n    name: lvm\nlate-commands:\n  - curtin in-target -- apt-get install -y htop\n']],
    boot: 'as user-data, cloud-init finds no handler for it; the installer reads it from the install media',
    message: /autoinstall file for Ubuntu's installer/,
    oracle: [{ unhandled: true }],
  },
  {
    name: 'autoinstall under #cloud-config (what the installer\'s cloud-init hands on)',
    code: 'plan-other-tool',
    fires: false,
    files: [['user-data', '#cloud-config\nautoinstall:\n  version: 1\n  identity:\n    hostname: ubuntu-server\n    username: ubuntu\n    password: "$6$x"\n']],
    boot: 'a cloud-config: cloud-init runs ubuntu_autoinstall on it',
    oracle: [{ row: { stage: 'config', module: 'ubuntu_autoinstall', decision: 'run' } }],
  },

  // plan-runcmd-never-run
  {
    name: "the file's own final list without scripts_user",
    code: 'plan-runcmd-never-run',
    fires: true,
    files: [['user-data', '#cloud-config\ncloud_final_modules:\n  - package_update_upgrade_install\n  - final_message\npackages: [git]\nruncmd:\n  - git clone https://example.org/app.git /opt/app\n']],
    boot: 'runcmd writes the script, and no module of the final list runs it',
    oracle: [{ unlisted: 'scripts_user' }, { row: { stage: 'config', module: 'runcmd', decision: 'run' } }],
  },
  {
    name: 'runcmd on the Ubuntu image',
    code: 'plan-runcmd-never-run',
    fires: false,
    files: [['user-data', '#cloud-config\nruncmd:\n  - git clone https://example.org/app.git /opt/app\n']],
    boot: 'scripts_user runs the script in the final stage',
    oracle: [{ row: { stage: 'final', module: 'scripts_user', decision: 'run' } }],
  },

  // plan-bootcmd-before-packages
  {
    name: 'bootcmd calling what packages installs',
    code: 'plan-bootcmd-before-packages',
    fires: true,
    files: [['user-data', '#cloud-config\npackages: [jq]\nbootcmd:\n  - jq -r .hostname /run/cloud-init/instance-data.json > /run/name\n']],
    boot: 'bootcmd runs in the init stage; jq is installed in the final stage: on the first boot the command is not found',
    oracle: [{ before: ['init:bootcmd', 'final:package_update_upgrade_install'] }],
  },
  {
    name: 'bootcmd calling a base command',
    code: 'plan-bootcmd-before-packages',
    fires: false,
    files: [['user-data', '#cloud-config\npackages: [jq]\nbootcmd:\n  - echo 127.0.1.1 web >> /etc/hosts\n']],
    boot: 'echo is there from the start',
  },

  // plan-reboot-early
  {
    name: 'reboot in bootcmd',
    code: 'plan-reboot-early',
    fires: true,
    files: [['user-data', '#cloud-config\nbootcmd:\n  - reboot\n']],
    boot: 'bootcmd runs on every boot, so every boot stops there',
    oracle: [{ row: { stage: 'init', module: 'bootcmd', decision: 'run', frequency: 'always' } }],
  },
  {
    name: 'power_state instead of a reboot in runcmd',
    code: 'plan-reboot-early',
    fires: false,
    files: [['user-data', '#cloud-config\nruncmd:\n  - apt-get -y dist-upgrade\npower_state:\n  mode: reboot\n  delay: now\n']],
    boot: 'power_state_change reboots after the final stage\'s other modules',
    oracle: [{ row: { stage: 'final', module: 'power_state_change', decision: 'run' } }],
  },
];
