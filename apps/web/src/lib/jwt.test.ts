import { describe, expect, it } from 'vitest';
import { jwtExpiresAt } from './jwt';

const b64url = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fakeJwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}.sig`;

describe('jwtExpiresAt', () => {
  it('reads exp as epoch milliseconds, with url-safe base64 and no padding', () => {
    expect(jwtExpiresAt(fakeJwt({ sub: '1', exp: 1_900_000_000, name: '??>>~~' }))).toBe(1_900_000_000_000);
  });
  it('answers null for tokens it cannot read', () => {
    expect(jwtExpiresAt('opaque-token')).toBeNull();
    expect(jwtExpiresAt('a.!!!.c')).toBeNull();
    expect(jwtExpiresAt(fakeJwt({ sub: '1' }))).toBeNull();
    expect(jwtExpiresAt(fakeJwt({ exp: 'soon' }))).toBeNull();
  });
});
