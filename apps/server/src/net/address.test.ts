import { describe, expect, it } from 'vitest';
import { NetworkGuard } from '../collectors/network-guard.js';
import { isBlockedAddress } from '../modules/notifications/index.js';
import { embeddedIPv4, ipv6Groups, isInternalAddress } from './address.js';

describe('one reading of IP addresses for push endpoints and collectors', () => {
  it('reads IPv6 groups in every spelling, a dotted IPv4 tail included', () => {
    expect(ipv6Groups('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('[::ffff:1.2.3.4]')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(ipv6Groups('::1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0x0102, 0x0304]);
    expect(ipv6Groups('2001:db8:0:0:0:0:0:1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('10.0.0.1')).toBeNull();
    expect(ipv6Groups('nonsense')).toBeNull();
  });

  it('finds the IPv4 address an IPv6 one reaches: mapped, compatible, SIIT, NAT64, 6to4, Teredo', () => {
    expect(embeddedIPv4('::ffff:a9fe:a9fe')).toEqual({ ip: '169.254.169.254', via: 'mapped' });
    expect(embeddedIPv4('::ffff:0:a9fe:a9fe')).toEqual({ ip: '169.254.169.254', via: 'mapped' });
    expect(embeddedIPv4('::a9fe:a9fe')).toEqual({ ip: '169.254.169.254', via: 'compatible' });
    expect(embeddedIPv4('::169.254.169.254')).toEqual({ ip: '169.254.169.254', via: 'compatible' });
    expect(embeddedIPv4('64:ff9b::a9fe:a9fe')).toEqual({ ip: '169.254.169.254', via: 'nat64' });
    expect(embeddedIPv4('64:ff9b:1::a9fe:a9fe')).toEqual({ ip: '169.254.169.254', via: 'nat64' });
    expect(embeddedIPv4('2002:a9fe:a9fe::1')).toEqual({ ip: '169.254.169.254', via: '6to4' });
    expect(embeddedIPv4('2001:0:4136:e378:8000:63bf:5601:5601')).toEqual({ ip: '169.254.169.254', via: 'teredo' });
    expect(embeddedIPv4('::1')).toBeNull();
    expect(embeddedIPv4('::')).toBeNull();
    expect(embeddedIPv4('2a00:1450:4001:82a::200a')).toBeNull();
  });

  const metadata = [
    '169.254.169.254',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::a9fe:a9fe',
    '[::a9fe:a9fe]',
    '::169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::169.254.169.254',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:5601:5601',
  ];

  it('the push guard refuses the metadata service in every spelling, and other inward addresses carried in IPv6', () => {
    for (const a of metadata) expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ['::7f00:1', '64:ff9b::10.0.0.1', '2002:c0a8:101::1', '::ffff:0:7f00:1', '64:ff9b:1::1'])
      expect(isInternalAddress(a), a).toBe(true);
    // Public addresses stay usable, also when carried (a NAT64 gateway to a public host is the point of NAT64).
    for (const a of ['8.8.8.8', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2a00:1450:4001:82a::200a'])
      expect(isInternalAddress(a), a).toBe(false);
  });

  it('the collectors guard refuses the same spellings, also where it allows the private ranges', async () => {
    const guard = new NetworkGuard(['127.0.0.0/8', '::1/128', '10.0.0.0/8', '192.168.0.0/16', 'fc00::/7']);
    for (const a of metadata) {
      expect(guard.allows(a.replace(/^\[|\]$/g, '')), a).toBe(false);
      await expect(guard.address(a), a).rejects.toMatchObject({ key: 'networkRefused' });
    }
    // Allowed networks in their IPv6 spellings are the IPv4 address, and are connected to as such.
    await expect(guard.address('::ffff:192.168.1.20')).resolves.toBe('192.168.1.20');
    await expect(guard.address('::c0a8:114')).resolves.toBe('192.168.1.20');
    // A translated form reaches through a gateway: refused unless its IPv6 network is allowed too.
    expect(guard.allows('64:ff9b::c0a8:114')).toBe(false);
    expect(new NetworkGuard(['64:ff9b::/96', '192.168.0.0/16']).allows('64:ff9b::c0a8:114')).toBe(true);
    expect(new NetworkGuard(['64:ff9b::/96', '192.168.0.0/16']).allows('64:ff9b::a9fe:a9fe')).toBe(false);
  });
});
