import { describe, expect, it } from 'vitest';
import { isRealTwilio, publicUrlProblem, telephonyAddressProblem } from '../../pocketbase/hook-src/telephonyAddress.ts';
import { signatureUrlForms } from '../../pocketbase/hook-src/twilioSignature.ts';

describe('SCMS_PUBLIC_URL with real Twilio', () => {
  const unreachable = [
    '',
    'patrol.example.com',
    'ftp://patrol.example.com',
    'http://127.0.0.1:8090',
    'http://127.9.9.9',
    'http://localhost:8090',
    'https://app.localhost',
    'http://0.0.0.0:8090',
    'http://10.1.2.3',
    'http://172.16.0.1',
    'http://172.31.255.255',
    'http://192.168.1.10:8090',
    'http://169.254.169.254',
    'http://100.64.0.1',
    'http://[::1]:8090',
    'http://[fd00::1]',
    'http://[fe80::1]',
    'http://[::ffff:127.0.0.1]',
    'http://patrol',
    'http://patrol.local',
    'http://patrol.internal',
    'https://user@127.0.0.1/',
  ];
  it.each(unreachable)('%s is refused, naming the variable', (url) => {
    expect(publicUrlProblem(url)).toMatch(/^SCMS_PUBLIC_URL /);
  });

  const reachable = [
    'https://patrol.example.com',
    'https://patrol.example.com:8443/scms',
    'http://203.0.113.7',
    'http://172.32.0.1',
    'https://[2001:db8::1]',
  ];
  it.each(reachable)('%s is accepted', (url) => {
    expect(publicUrlProblem(url)).toBe('');
  });

  it('only Twilio itself needs a public URL (the stand-in runs on this machine)', () => {
    expect(isRealTwilio('')).toBe(true);
    expect(isRealTwilio('https://api.twilio.com')).toBe(true);
    expect(isRealTwilio('https://api.dublin.ie1.twilio.com/')).toBe(true);
    expect(isRealTwilio('http://127.0.0.1:8091')).toBe(false);
    expect(isRealTwilio('https://twilio.com.evil.example')).toBe(false);
    expect(telephonyAddressProblem('http://127.0.0.1:8091', 'http://127.0.0.1:8090')).toBe('');
    expect(telephonyAddressProblem('', 'http://127.0.0.1:8090')).not.toBe('');
  });
});

describe('signatureUrlForms (what validateRequest accepts)', () => {
  it.each([
    [
      'https://p.example.com/api/scms/call-status',
      ['https://p.example.com/api/scms/call-status', 'https://p.example.com:443/api/scms/call-status'],
    ],
    ['https://p.example.com:443/cb?x=1', ['https://p.example.com:443/cb?x=1', 'https://p.example.com/cb?x=1']],
    ['http://p.example.com/cb', ['http://p.example.com/cb', 'http://p.example.com:80/cb']],
    ['http://p.example.com:80', ['http://p.example.com:80', 'http://p.example.com']],
    ['https://p.example.com:8443/cb', ['https://p.example.com:8443/cb']],
    ['http://p.example.com:443/cb', ['http://p.example.com:443/cb']],
    ['https://[2001:db8::1]/cb', ['https://[2001:db8::1]/cb', 'https://[2001:db8::1]:443/cb']],
    ['not a url', ['not a url']],
  ])('%s', (url, forms) => {
    expect(signatureUrlForms(url)).toEqual(forms);
  });
});
