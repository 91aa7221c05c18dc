/**
 * The start scripts' exposure rules (scripts/services.ts): which listening
 * addresses count as this machine only (no demo warning), and which origins
 * CORS answers. tests/integration/start-exposure.test.ts starts the real
 * scripts.
 */
import { describe, expect, test } from 'vitest';
import { allowedOrigins, demoExposureWarning, isLoopbackHost } from '../../scripts/services.ts';

describe('isLoopbackHost', () => {
  test.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]'])('%s is this machine only', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  test.each(['0.0.0.0', '::', '192.168.1.20', '10.0.0.5', 'patrol.example.com', '128.0.0.1', '127.0.0.1.example.com'])(
    '%s can be reached from elsewhere',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('demoExposureWarning', () => {
  test('demo mode on a reachable address: the warning names the address and how production turns demo mode off', () => {
    const lines = demoExposureWarning(true, '0.0.0.0', 8090).join('\n');
    expect(lines).toContain('WARNING: demo mode is on and the server listens on 0.0.0.0:8090');
    expect(lines).toContain('SCMS_DEMO=0');
  });
  test('none on loopback, none without demo mode', () => {
    expect(demoExposureWarning(true, '127.0.0.1', 8090)).toEqual([]);
    expect(demoExposureWarning(false, '0.0.0.0', 8090)).toEqual([]);
  });
});

describe('allowedOrigins', () => {
  test("unset: the public URL's origin alone", () => {
    expect(allowedOrigins(undefined, 'https://patrol.example.com/app')).toEqual(['https://patrol.example.com']);
  });
  test('a list, trimmed, with a trailing slash tolerated', () => {
    expect(allowedOrigins(' https://a.example , https://b.example:8443/ ,', 'http://127.0.0.1:8090')).toEqual([
      'https://a.example',
      'https://b.example:8443',
    ]);
  });
  test.each(['*', 'patrol.example.com', 'https://a.example/path', 'ftp://a.example', 'https://a.example?x=1'])(
    '%s is refused at start',
    (value) => {
      expect(() => allowedOrigins(value, 'http://127.0.0.1:8090')).toThrow(/SCMS_ALLOWED_ORIGINS/);
    },
  );
});
