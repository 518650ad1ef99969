/**
 * The one table of what each cloud accepts as user-data: its documented size limit, counted on what (the
 * bytes cloud-init receives, or their base64 text as the API carries it), and where the limit is written.
 * Each row was checked against its source with the project's search tools (issue 30); `verified` says how
 * far, and what could not be checked.
 */

export const CLOUD_NAMES = ['aws', 'azure', 'gcp', 'openstack', 'hetzner', 'digitalocean', 'oracle'] as const;
export type CloudName = (typeof CLOUD_NAMES)[number];

export interface CloudLimit {
  cloud: CloudName;
  /** The cloud and the field user-data goes in, as its documentation names them. */
  title: string;
  /** The most bytes the cloud accepts. */
  bytes: number;
  /**
   * `raw`: counted on the user-data itself (what cloud-init receives); `base64`: counted on its base64
   * text (ceil(n/3)*4 characters for n bytes), the form the API carries.
   */
  counted: 'raw' | 'base64';
  /** Where the limit is documented. */
  source: string;
  /** How the limit was checked: 'verified' (the source says it), or what could not be checked. */
  verified: string;
  /** What else the user should know about this limit. */
  note?: string;
}

export const CLOUD_LIMITS: readonly CloudLimit[] = [
  {
    cloud: 'aws',
    title: 'AWS EC2 (UserData)',
    bytes: 16384,
    counted: 'raw',
    source: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html',
    verified: 'verified: "limited to 16 KB, in raw form, before it is base64-encoded"',
    note: 'over it, the API answers InvalidUserData.Malformed or a length error on the base64 text',
  },
  {
    cloud: 'azure',
    title: 'Azure VM (customData)',
    bytes: 87380,
    counted: 'base64',
    source: 'https://learn.microsoft.com/en-us/azure/virtual-machines/custom-data',
    verified: 'verified: the page says 64 KB; the API counts the base64 text ("Custom data in OSProfile must be in Base64 encoding and with a maximum length of 87380 characters", github.com/Azure/aks-engine/issues/1663)',
  },
  {
    cloud: 'gcp',
    title: 'Google Compute Engine (metadata value user-data)',
    bytes: 262144,
    counted: 'raw',
    source: 'https://googleapis.dev/dotnet/Google.Apis.Compute.alpha/latest/api/Google.Apis.Compute.alpha.Data.Metadata.ItemsData.html',
    verified: 'verified: a metadata value "must be less than or equal to 262144 bytes (256 KiB)" (the Compute API\'s Metadata items, as its generated client documentation states it)',
    note: 'all the instance metadata together is limited to 512 KB',
  },
  {
    cloud: 'openstack',
    title: 'OpenStack Nova (user_data)',
    bytes: 65535,
    counted: 'base64',
    source: 'https://docs.openstack.org/nova/stein/user/user-data.html',
    verified: 'verified: "must be base64 encoded and is restricted to 65535 bytes"',
  },
  {
    cloud: 'hetzner',
    title: 'Hetzner Cloud (user_data)',
    bytes: 32768,
    counted: 'raw',
    source: 'https://docs.hetzner.cloud/#servers-create-a-server',
    verified: 'partly verified: the API\'s field description "This field is limited to 32KiB" as client libraries copy it (hcloud-go and others); the page itself was not in the searchable corpus',
  },
  {
    cloud: 'digitalocean',
    title: 'DigitalOcean Droplet (user_data)',
    bytes: 65536,
    counted: 'raw',
    source: 'https://docs.digitalocean.com/reference/api/api-reference/#operation/droplets_create',
    verified: 'NOT verified: no DigitalOcean page in the searchable corpus states the limit; 64 KiB is what third-party code checks',
  },
  {
    cloud: 'oracle',
    title: 'Oracle Cloud Infrastructure (metadata user_data)',
    bytes: 32000,
    counted: 'base64',
    source: 'https://docs.cloud.oracle.com/en-us/iaas/Content/Compute/Tasks/updatinginstancemetada.htm',
    verified: 'verified: metadata and extendedMetadata together "can be a maximum of 32,000 bytes"; user_data is given base64-encoded',
    note: 'the limit covers all the metadata together (ssh_authorized_keys included), so less is left for user_data',
  },
];

export function isCloudName(name: string): name is CloudName {
  return (CLOUD_NAMES as readonly string[]).includes(name);
}

export function cloudLimit(cloud: CloudName): CloudLimit {
  return CLOUD_LIMITS.find((l) => l.cloud === cloud)!;
}

/** The length of the base64 text of n bytes (no line breaks): ceil(n/3)*4. */
export function base64Length(n: number): number {
  return Math.ceil(n / 3) * 4;
}
