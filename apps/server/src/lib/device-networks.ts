import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { realpath } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Where the server may open connections to devices and cameras (docs/security.md, "Device networks").
 * Without it, a camera URL, a SunSpec discovery or a polled Modbus host could name any host and port, and
 * the answers would map the networks the server sits in.
 */

/** Refused whatever the admin's list says: this host, link-local (cloud metadata), unspecified, multicast. */
export const ALWAYS_REFUSED_NETWORKS = [
  '127.0.0.0/8',
  '::1/128',
  '169.254.0.0/16',
  'fe80::/10',
  '0.0.0.0/8',
  '::/128',
  '224.0.0.0/4',
  '255.255.255.255/32',
  'ff00::/8',
];

/** An address the device networks refuse; the message is for the log only, never for the client. */
export class AddressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

/** Resolves a host name to all its addresses (node:dns by default; tests give their own). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/** A BlockList of CIDRs (already validated by the settings schema or the config). */
function blockListOf(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split('/') as [string, string];
    const family = isIP(address);
    if (family === 0) continue;
    list.addSubnet(address, Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/** A connection target that passed the check: connect to `address`, never to the name again. */
export interface CheckedTarget {
  host: string;
  address: string;
  family: 4 | 6;
  port: number;
}

export interface DeviceNetworksOptions {
  /** The admin's list (the system setting), read at every check so that a save applies at once. */
  allowed: () => readonly string[];
  /** DEVICE_NETWORKS_ALLOW: allowed besides the list, even inside ALWAYS_REFUSED_NETWORKS. */
  extraAllowed: readonly string[];
  /** The ports this server listens on; refused on every address of this host, whatever else says. */
  ownPorts: () => readonly number[];
  /** The path prefixes a serial port may resolve to (SERIAL_PORTS_ALLOW, else SERIAL_PORTS_DEFAULT). */
  serialPorts: readonly string[];
  resolve?: Resolver;
}

/**
 * The check, built once in buildApp. `refusal` judges one address; `target` resolves a host name, judges
 * every address it has (one refused address refuses the name, so a name cannot hide loopback behind a
 * public address) and answers the address to connect to, so a second lookup cannot rebind it.
 */
export class DeviceNetworks {
  private readonly refused = blockListOf(ALWAYS_REFUSED_NETWORKS);
  private readonly extra: BlockList;
  private cachedList: readonly string[] | undefined;
  private cachedAllowed = new BlockList();
  private readonly resolver: Resolver;

  constructor(private readonly options: DeviceNetworksOptions) {
    this.extra = blockListOf(options.extraAllowed);
    this.resolver = options.resolve ?? systemResolver;
  }

  private allowedList(): BlockList {
    const list = this.options.allowed();
    if (list !== this.cachedList) {
      this.cachedList = list;
      this.cachedAllowed = blockListOf(list);
    }
    return this.cachedAllowed;
  }

  /** Why `address:port` is refused, or null when the server may connect to it. */
  refusal(address: string, port: number): string | null {
    const ip = bare(address);
    if (isIP(ip) === 0) return `${address} is not an address`;
    const family = familyOf(ip);
    if (this.options.ownPorts().includes(port) && isOwnAddress(ip)) return `${ip}:${port} is this server`;
    if (this.extra.check(ip, family)) return null;
    if (this.refused.check(ip, family)) return `${ip} is in a range refused by default`;
    if (!this.allowedList().check(ip, family)) return `${ip} is outside the device networks`;
    return null;
  }

  /**
   * The address to connect to for `host:port`; AddressRefusedError when any address of the name is
   * refused, or the name does not resolve (the caller answers both as an unreachable device).
   */
  async target(host: string, port: number): Promise<CheckedTarget> {
    const name = bare(host);
    const addresses: LookupAddress[] =
      isIP(name) !== 0
        ? [{ address: name, family: isIP(name) }]
        : await this.resolver(name).catch((error: unknown) => {
            throw new AddressRefusedError(`${name} does not resolve: ${String(error)}`);
          });
    if (!addresses.length) throw new AddressRefusedError(`${name} has no address`);
    for (const { address } of addresses) {
      const why = this.refusal(address, port);
      if (why) throw new AddressRefusedError(`${name}: ${why}`);
    }
    const first = addresses[0]!;
    return { host: name, address: first.address, family: first.family === 6 ? 6 : 4, port };
  }

  /**
   * The serial port to open for a Modbus RTU device's `path`: its real path (links such as
   * /dev/serial/by-id/… followed), when that lies under one of the allowed prefixes. AddressRefusedError
   * otherwise, or when the path does not exist; the poller answers both as an unreachable device. Checked
   * at every open, as an address is at every connection: what a link points to can change.
   */
  async serialPort(path: string): Promise<string> {
    const real = await realpath(path).catch(() => {
      throw new AddressRefusedError(`${path} does not exist`);
    });
    if (!this.options.serialPorts.some((prefix) => real.startsWith(prefix)))
      throw new AddressRefusedError(`${path} (${real}) is not an allowed serial port`);
    return real;
  }

  /**
   * Whether an address may be saved: an IP literal is judged as it is; a name is resolved now and refused
   * when it resolves to a refused address. A name that does not resolve yet is accepted (the plant's DNS
   * may differ from the server's); the connection-time check still holds.
   */
  async savable(host: string, port: number): Promise<boolean> {
    const name = bare(host);
    if (isIP(name) !== 0) return this.refusal(name, port) === null;
    const addresses = await this.resolver(name).catch(() => null);
    if (!addresses) return true;
    return addresses.every(({ address }) => this.refusal(address, port) === null);
  }
}

/** Whether an address is one of this host's (its interfaces, loopback or unspecified). */
function isOwnAddress(address: string): boolean {
  const family = familyOf(address);
  const own = new BlockList();
  own.addSubnet('127.0.0.0', 8, 'ipv4');
  own.addAddress('::1', 'ipv6');
  own.addAddress('0.0.0.0', 'ipv4');
  own.addAddress('::', 'ipv6');
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      own.addAddress(entry.address.split('%')[0]!, entry.family === 'IPv6' ? 'ipv6' : 'ipv4');
    }
  }
  return own.check(address, family);
}

/** The port a URL names, or its scheme's default. */
export const portOfUrl = (url: URL): number =>
  url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;

/**
 * Waits until `deadlineMs` has passed since `startedMs` (performance.now()): every failure is answered at
 * the same moment, so a closed port (refused at once) cannot be told from a silent one (waited out).
 */
export async function answerAtDeadline(startedMs: number, deadlineMs: number): Promise<void> {
  const left = startedMs + deadlineMs - performance.now();
  if (left > 0) await sleep(left);
}
