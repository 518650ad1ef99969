/**
 * Sample instance data for common clouds, selectable by name (`cloudConfigMerge.instanceData`, the
 * CLI's `--instance-data`). Each sample is put together the way cloud-init writes
 * /run/cloud-init/instance-data-sensitive.json (sources/__init__.py, persist_instance_data): the
 * datasource's crawled data under `ds`, the system config under `merged_cfg` (and, since 23.x,
 * `merged_system_cfg`), `sys_info`, the standardized `v1` keys (dash and underscore forms), and the
 * `base64_encoded_keys`/`sensitive_keys` lists; current cloud-init also adds `system_info` and
 * `features` once the config is known (stages.py).
 *
 * The values are invented (no real account, address or key) and the `_doc` texts are our own words;
 * the shapes follow what the datasources crawl. Residual differences: a real instance has more
 * keys (every metadata entry the cloud serves); these carry the ones templates commonly use.
 */
import { atLeast, type CloudInitVersion } from '../version/versions';

/** A plain JSON object. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface CloudSample {
  /** Shown in hovers and the rendered view's title. */
  description: string;
  /** What the datasource crawled (`ds`). */
  ds: JsonObject;
  cloudName: string;
  platform: string;
  subplatform: string;
  region: string | null;
  availabilityZone: string | null;
  instanceId: string;
  localHostname: string;
  publicSshKeys: string[];
  datasourceList: string[];
  /** platform.uname() and the distro triple, as sys_info holds them. */
  kernel: string;
  machine: string;
  dist: [string, string, string];
}

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyNotARealKeyExampleKeyNotARealKey0 admin@example';

const SAMPLES: Record<string, CloudSample> = {
  aws: {
    description: 'Amazon EC2, Ubuntu 22.04, us-east-1',
    ds: {
      _metadata_api_version: '2021-03-23',
      dynamic: {
        'instance-identity': {
          document: {
            accountId: '123456789012',
            architecture: 'x86_64',
            availabilityZone: 'us-east-1a',
            imageId: 'ami-0abcdef1234567890',
            instanceId: 'i-0123456789abcdef0',
            instanceType: 't3.micro',
            pendingTime: '2024-05-02T10:11:12Z',
            privateIp: '172.31.20.5',
            region: 'us-east-1',
            version: '2017-09-30',
          },
        },
      },
      'meta-data': {
        'ami-id': 'ami-0abcdef1234567890',
        'ami-launch-index': '0',
        'block-device-mapping': { ami: '/dev/sda1', root: '/dev/sda1' },
        hostname: 'ip-172-31-20-5.ec2.internal',
        iam: {
          info: { Code: 'Success', InstanceProfileArn: 'arn:aws:iam::123456789012:instance-profile/web', InstanceProfileId: 'AIPAEXAMPLEPROFILEID', LastUpdated: '2024-05-02T10:12:00Z' },
          'security-credentials': { web: { AccessKeyId: 'ASIAEXAMPLEKEYID', Code: 'Success', Expiration: '2024-05-02T16:30:00Z', SecretAccessKey: 'example-secret', Token: 'example-token', Type: 'AWS-HMAC' } },
        },
        'instance-action': 'none',
        'instance-id': 'i-0123456789abcdef0',
        'instance-life-cycle': 'on-demand',
        'instance-type': 't3.micro',
        'local-hostname': 'ip-172-31-20-5.ec2.internal',
        'local-ipv4': '172.31.20.5',
        mac: '0a:1b:2c:3d:4e:5f',
        metrics: { vhostmd: '<?xml version="1.0" encoding="UTF-8"?>' },
        network: {
          interfaces: {
            macs: {
              '0a:1b:2c:3d:4e:5f': {
                'device-number': '0',
                'interface-id': 'eni-0123456789abcdef0',
                'local-hostname': 'ip-172-31-20-5.ec2.internal',
                'local-ipv4s': '172.31.20.5',
                mac: '0a:1b:2c:3d:4e:5f',
                'owner-id': '123456789012',
                'public-ipv4s': '203.0.113.10',
                'security-group-ids': 'sg-0123456789abcdef0',
                'security-groups': 'web',
                'subnet-id': 'subnet-0123456789abcdef0',
                'subnet-ipv4-cidr-block': '172.31.16.0/20',
                'vpc-id': 'vpc-0123456789abcdef0',
              },
            },
          },
        },
        placement: { 'availability-zone': 'us-east-1a', 'availability-zone-id': 'use1-az4', region: 'us-east-1' },
        profile: 'default-hvm',
        'public-hostname': 'ec2-203-0-113-10.compute-1.amazonaws.com',
        'public-ipv4': '203.0.113.10',
        'public-keys': { 'admin-key': [KEY] },
        'reservation-id': 'r-0123456789abcdef0',
        'security-groups': 'web',
        services: { domain: 'amazonaws.com', partition: 'aws' },
        tags: { instance: { Name: 'web-1', Environment: 'production' } },
      },
    },
    cloudName: 'aws',
    platform: 'ec2',
    subplatform: 'metadata (http://169.254.169.254)',
    region: 'us-east-1',
    availabilityZone: 'us-east-1a',
    instanceId: 'i-0123456789abcdef0',
    localHostname: 'ip-172-31-20-5',
    publicSshKeys: [KEY],
    datasourceList: ['Ec2', 'None'],
    kernel: '6.5.0-1017-aws',
    machine: 'x86_64',
    dist: ['ubuntu', '22.04', 'jammy'],
  },
  azure: {
    description: 'Microsoft Azure, Ubuntu 22.04, westeurope',
    ds: {
      meta_data: {
        'instance-id': '5f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        'local-hostname': 'web-1',
        random_seed: 'ci-b64:ZXhhbXBsZSByYW5kb20gc2VlZCBmcm9tIHRoZSBoeXBlcnZpc29y',
        imds: {
          compute: {
            azEnvironment: 'AzurePublicCloud',
            location: 'westeurope',
            name: 'web-1',
            offer: '0001-com-ubuntu-server-jammy',
            osType: 'Linux',
            publisher: 'Canonical',
            resourceGroupName: 'web-rg',
            sku: '22_04-lts-gen2',
            subscriptionId: '00000000-1111-2222-3333-444444444444',
            tags: 'env:production;role:web',
            tagsList: [
              { name: 'env', value: 'production' },
              { name: 'role', value: 'web' },
            ],
            vmId: '5f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
            vmSize: 'Standard_B2s',
            zone: '1',
          },
          network: {
            interface: [
              {
                ipv4: { ipAddress: [{ privateIpAddress: '10.0.0.4', publicIpAddress: '' }], subnet: [{ address: '10.0.0.0', prefix: '24' }] },
                ipv6: { ipAddress: [] },
                macAddress: '000D3A1B2C3D',
              },
            ],
          },
        },
      },
    },
    cloudName: 'azure',
    platform: 'azure',
    subplatform: 'seed-dir (/var/lib/waagent)',
    region: 'westeurope',
    availabilityZone: '1',
    instanceId: '5F1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
    localHostname: 'web-1',
    publicSshKeys: [KEY],
    datasourceList: ['Azure'],
    kernel: '6.5.0-1016-azure',
    machine: 'x86_64',
    dist: ['ubuntu', '22.04', 'jammy'],
  },
  gce: {
    description: 'Google Compute Engine, Debian 12, us-central1-a',
    ds: {
      meta_data: {
        'availability-zone': 'us-central1-a',
        'instance-id': '4567890123456789012',
        'local-hostname': 'web-1',
        'public-keys': [`admin:${KEY}`],
        'user-data': null,
        'user-data-encoding': null,
      },
    },
    cloudName: 'gce',
    platform: 'gce',
    subplatform: 'metadata (http://metadata.google.internal/computeMetadata/v1/)',
    region: 'us-central1',
    availabilityZone: 'us-central1-a',
    instanceId: '4567890123456789012',
    localHostname: 'web-1',
    publicSshKeys: [KEY],
    datasourceList: ['GCE'],
    kernel: '6.1.0-21-cloud-amd64',
    machine: 'x86_64',
    dist: ['debian', '12', 'bookworm'],
  },
  openstack: {
    description: 'OpenStack, Ubuntu 22.04, availability zone nova',
    ds: {
      ec2_metadata: {
        'ami-id': 'ami-00000042',
        'instance-id': 'i-0000abcd',
        'instance-type': 'm1.small',
        'local-hostname': 'web-1.novalocal',
        'local-ipv4': '10.1.0.12',
        placement: { 'availability-zone': 'nova' },
        'public-hostname': 'web-1.novalocal',
        'public-ipv4': '198.51.100.20',
        'public-keys': { '0': { 'openssh-key': KEY } },
        'security-groups': ['default'],
      },
      meta_data: {
        availability_zone: 'nova',
        devices: [],
        hostname: 'web-1.novalocal',
        'instance-id': '0a1b2c3d-4e5f-4061-8293-a4b5c6d7e8f9',
        launch_index: 0,
        'local-hostname': 'web-1',
        meta: { role: 'web', environment: 'production' },
        name: 'web-1',
        project_id: '0123456789abcdef0123456789abcdef',
        public_keys: { admin: KEY },
        uuid: '0a1b2c3d-4e5f-4061-8293-a4b5c6d7e8f9',
      },
      network_json: {
        links: [{ ethernet_mac_address: 'fa:16:3e:12:34:56', id: 'tap0a1b2c3d-4e', mtu: 1450, type: 'ovs', vif_id: '0a1b2c3d-4e5f-4061-8293-a4b5c6d7e8f0' }],
        networks: [{ id: 'network0', link: 'tap0a1b2c3d-4e', network_id: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', type: 'ipv4_dhcp' }],
        services: [{ address: '10.1.0.2', type: 'dns' }],
      },
    },
    cloudName: 'openstack',
    platform: 'openstack',
    subplatform: 'metadata (http://169.254.169.254)',
    region: null,
    availabilityZone: 'nova',
    instanceId: '0a1b2c3d-4e5f-4061-8293-a4b5c6d7e8f9',
    localHostname: 'web-1',
    publicSshKeys: [KEY],
    datasourceList: ['OpenStack', 'None'],
    kernel: '5.15.0-105-generic',
    machine: 'x86_64',
    dist: ['ubuntu', '22.04', 'jammy'],
  },
  lxd: {
    description: 'LXD container, Ubuntu 24.04',
    ds: {
      _metadata_api_version: '1.0',
      config: {
        'user.meta-data': 'role: web\n',
        'user.vendor-data': '#cloud-config\n{}\n',
      },
      devices: {
        eth0: { name: 'eth0', network: 'lxdbr0', type: 'nic' },
        root: { path: '/', pool: 'default', type: 'disk' },
      },
      'meta-data': '#cloud-config\ninstance-id: 3c8a7d2e-1f4b-4a6c-9d8e-7f6a5b4c3d2e\nlocal-hostname: web-1\nrole: web\n',
    },
    cloudName: 'lxd',
    platform: 'lxd',
    subplatform: 'LXD socket API v. 1.0 (/dev/lxd/sock)',
    region: null,
    availabilityZone: null,
    instanceId: '3c8a7d2e-1f4b-4a6c-9d8e-7f6a5b4c3d2e',
    localHostname: 'web-1',
    publicSshKeys: [],
    datasourceList: ['LXD', 'NoCloud', 'None'],
    kernel: '6.8.0-31-generic',
    machine: 'x86_64',
    dist: ['ubuntu', '24.04', 'noble'],
  },
  nocloud: {
    description: 'NoCloud seed for a local VM, Ubuntu 24.04',
    ds: {
      meta_data: {
        dsmode: 'net',
        'instance-id': 'iid-local01',
        'local-hostname': 'cloudimg',
      },
    },
    cloudName: 'nocloud',
    platform: 'nocloud',
    subplatform: 'seed-dir (/var/lib/cloud/seed/nocloud)',
    region: null,
    availabilityZone: null,
    instanceId: 'iid-local01',
    localHostname: 'cloudimg',
    publicSshKeys: [],
    datasourceList: ['NoCloud', 'None'],
    kernel: '6.8.0-31-generic',
    machine: 'x86_64',
    dist: ['ubuntu', '24.04', 'noble'],
  },
};

export const SAMPLE_NAMES: readonly string[] = Object.keys(SAMPLES);

export function isSampleName(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(SAMPLES, name);
}

export function sampleDescription(name: string): string {
  return SAMPLES[name]?.description ?? name;
}

/** Keys cloud-init lists as sensitive (Datasource.sensitive_metadata_keys): 22.4's two, the same ten from 23.4 on. */
const SENSITIVE_KEYS_22_4: readonly string[] = ['merged_cfg', 'security-credentials'];
const SENSITIVE_KEYS_23_4: readonly string[] = ['combined_cloud_config', 'merged_cfg', 'merged_system_cfg', 'security-credentials', 'userdata', 'user-data', 'user_data', 'vendordata', 'vendor-data', 'ds/vendor_data'];

/** The feature flags `features.get_features()` lists (23.4 and later), with the first version that has each. */
const FEATURE_SINCE: ReadonlyArray<readonly [string, CloudInitVersion]> = [
  ['DEPRECATION_INFO_BOUNDARY', '24.4'],
  ['MANUAL_NETWORK_WAIT', '25.1'],
  ['STRIP_INVALID_MTU', 'current'],
];

/** The system config a stock Ubuntu/Debian image merges from cloud.cfg and cloud.cfg.d (shortened). */
function systemConfig(sample: CloudSample): JsonObject {
  const distro = sample.dist[0];
  return {
    _log: ['[loggers]\nkeys=root,cloudinit\n', '[formatters]\nkeys=arg0formatter\n'],
    cloud_config_modules: ['ssh_import_id', 'keyboard', 'locale', 'set_passwords', 'apt_configure', 'ntp', 'timezone', 'disable_ec2_metadata', 'runcmd'],
    cloud_final_modules: ['package_update_upgrade_install', 'write_files_deferred', 'scripts_vendor', 'scripts_per_once', 'scripts_user', 'ssh_authkey_fingerprints', 'keys_to_console', 'final_message'],
    cloud_init_modules: ['seed_random', 'bootcmd', 'write_files', 'growpart', 'resizefs', 'disk_setup', 'mounts', 'set_hostname', 'update_hostname', 'update_etc_hosts', 'ca_certs', 'rsyslog', 'users_groups', 'ssh'],
    datasource_list: sample.datasourceList,
    def_log_file: '/var/log/cloud-init.log',
    disable_root: true,
    log_cfgs: [['[loggers]\nkeys=root,cloudinit\n']],
    output: { all: '| tee -a /var/log/cloud-init-output.log' },
    preserve_hostname: false,
    syslog_fix_perms: ['syslog:adm', 'root:adm', 'root:wheel', 'root:root'],
    system_info: systemInfo(distro),
    users: ['default'],
    vendor_data: { enabled: true, prefix: [] },
    vendor_data2: { enabled: true, prefix: [] },
  };
}

function systemInfo(distro: string): JsonObject {
  const user = distro === 'debian' ? 'debian' : 'ubuntu';
  return {
    default_user: { groups: ['adm', 'cdrom', 'dip', 'lxd', 'sudo'], lock_passwd: true, name: user, gecos: distro === 'debian' ? 'Debian' : 'Ubuntu', shell: '/bin/bash', sudo: ['ALL=(ALL) NOPASSWD:ALL'] },
    distro,
    network: { renderers: ['netplan', 'eni', 'networkd'] },
    paths: { cloud_dir: '/var/lib/cloud/', templates_dir: '/etc/cloud/templates/' },
    ssh_svcname: 'ssh',
  };
}

/**
 * The instance data of a sample as the given cloud-init writes instance-data-sensitive.json.
 * Throws on an unknown name (check with isSampleName).
 */
export function sampleInstanceData(name: string, version: CloudInitVersion): JsonObject {
  const sample = SAMPLES[name];
  if (!sample) throw new Error(`no instance-data sample named ${JSON.stringify(name)} (known: ${SAMPLE_NAMES.join(', ')})`);
  const sysCfg = systemConfig(sample);
  const [distro, distroVersion, distroRelease] = sample.dist;
  const data: JsonObject = {
    ds: { ...structuredClone(sample.ds), _doc: 'EXPERIMENTAL: what is under "ds" is the raw datasource data and may change between cloud-init releases.' },
    merged_cfg: { ...structuredClone(sysCfg), _doc: !atLeast(version, '23.4') ? 'cloud-init system config merged from /etc/cloud/cloud.cfg and /etc/cloud/cloud.cfg.d/' : 'DEPRECATED: use merged_system_cfg' },
    sys_info: {
      dist: [distro, distroVersion, distroRelease],
      platform: `Linux-${sample.kernel}-${sample.machine}-with-glibc2.35`,
      python: sample.dist[1] === '24.04' ? '3.12.3' : sample.dist[0] === 'debian' ? '3.11.2' : '3.10.12',
      release: sample.kernel,
      system: 'Linux',
      uname: ['Linux', sample.localHostname, sample.kernel, '#1 SMP PREEMPT_DYNAMIC', sample.machine],
      variant: distro,
    },
    v1: {
      _beta_keys: ['subplatform'],
      'availability-zone': sample.availabilityZone,
      availability_zone: sample.availabilityZone,
      cloud_id: sample.cloudName,
      'cloud-name': sample.cloudName,
      cloud_name: sample.cloudName,
      distro,
      distro_release: distroRelease,
      distro_version: distroVersion,
      'instance-id': sample.instanceId,
      instance_id: sample.instanceId,
      kernel_release: sample.kernel,
      'local-hostname': sample.localHostname,
      local_hostname: sample.localHostname,
      machine: sample.machine,
      platform: sample.platform,
      public_ssh_keys: sample.publicSshKeys,
      python_version: '',
      region: sample.region,
      subplatform: sample.subplatform,
      system_platform: '',
      variant: distro,
    },
  };
  const sysInfo = data.sys_info as JsonObject;
  const v1 = data.v1 as JsonObject;
  v1.python_version = sysInfo.python;
  v1.system_platform = sysInfo.platform;
  if (atLeast(version, '23.4')) {
    data.merged_system_cfg = { ...structuredClone(sysCfg), _doc: 'cloud-init system config merged from /etc/cloud/cloud.cfg and /etc/cloud/cloud.cfg.d/' };
    data.system_info = structuredClone(sysCfg.system_info);
    data.features = {
      ALLOW_EC2_MIRRORS_ON_NON_AWS_INSTANCE_TYPES: false,
      APT_DEB822_SOURCE_LIST_FILE: true,
      DEPRECATION_INFO_BOUNDARY: 'devel',
      ERROR_ON_USER_DATA_FAILURE: true,
      EXPIRE_APPLIES_TO_HASHED_USERS: true,
      MANUAL_NETWORK_WAIT: true,
      NETPLAN_CONFIG_ROOT_READ_ONLY: true,
      NOCLOUD_SEED_URL_APPEND_FORWARD_SLASH: true,
      STRIP_INVALID_MTU: false,
    };
    for (const [name, since] of FEATURE_SINCE) if (!atLeast(version, since)) delete data.features[name];
  }
  return processInstanceMetadata(data, '', atLeast(version, '23.4') ? SENSITIVE_KEYS_23_4 : SENSITIVE_KEYS_22_4);
}

/**
 * process_instance_metadata: strips the `ci-b64:` prefix of values and lists them in
 * `base64_encoded_keys`, and lists the sensitive key paths in `sensitive_keys` (both sorted).
 */
function processInstanceMetadata(metadata: JsonObject, keyPath: string, sensitive: readonly string[]): JsonObject {
  const copy: JsonObject = {};
  const base64: string[] = [];
  const sens: string[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    const sub = keyPath ? `${keyPath}/${key}` : key;
    if (sensitive.includes(key) || sensitive.includes(sub)) sens.push(sub);
    copy[key] = value;
    if (typeof value === 'string' && value.startsWith('ci-b64:')) {
      base64.push(sub);
      copy[key] = value.split('ci-b64:').join('');
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = processInstanceMetadata(value, sub, sensitive);
      base64.push(...(inner.base64_encoded_keys as string[]));
      sens.push(...(inner.sensitive_keys as string[]));
      delete inner.base64_encoded_keys;
      delete inner.sensitive_keys;
      copy[key] = inner;
    }
  }
  copy.base64_encoded_keys = base64.sort();
  copy.sensitive_keys = sens.sort();
  return copy;
}
