/**
 * `npm run start:prod` without a Twilio account: it starts no
 * telephony stand-in (a production server must never place make-believe
 * calls staff would take for real ones), says calls are off, and calling a
 * resident answers 503 naming what is missing, writing nothing. With an
 * account but not its token or number it refuses to start.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { superuserClient } from '../../scripts/backups.ts';
import { freePort, projectRoot } from '../../scripts/pocketbase/server.ts';
import { createCommunity, TEST_PASSWORD } from '../support/pocketbase.ts';
import { scriptProcess } from '../support/script-process.ts';
import { prodEnvironment, startProd, type RunningProd } from '../support/start-prod.ts';

const SUPERUSER = { email: 'owner@calls.test', password: 'a-long-production-secret' };

/** A start with its superuser and a local http address; no Twilio account (blank by default). */
function environment(dir: string, port: number, given: Record<string, string> = {}): NodeJS.ProcessEnv {
  return prodEnvironment(dir, port, {
    SCMS_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SCMS_ALLOW_HTTP: '1',
    SCMS_SUPERUSER_EMAIL: SUPERUSER.email,
    SCMS_SUPERUSER_PASSWORD: SUPERUSER.password,
    ...given,
  });
}

/** True when something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

describe('npm run start:prod without a Twilio account', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scms-prod-calls-'));
  let prod: RunningProd | undefined;
  let out = '';
  let url = '';
  let standinPort = 0;

  beforeAll(async () => {
    const port = await freePort();
    standinPort = await freePort();
    url = `http://127.0.0.1:${port}`;
    prod = await startProd(environment(dir, port, { TELEPHONY_STANDIN_PORT: String(standinPort) }));
    out = prod.out();
  }, 180_000);

  afterAll(async () => {
    await prod?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  test('no stand-in is started, and the start says calls are off', async () => {
    expect(out).toContain('Calls are off: no TWILIO_ACCOUNT_SID');
    expect(out).not.toContain('telephony stand-in');
    expect(await listening(standinPort)).toBe(false);
  });

  test('calling a resident answers 503 naming the missing settings, and writes nothing', async () => {
    const admin = await superuserClient(url, SUPERUSER);
    const fixture = await createCommunity(admin, 'prodcalls');
    const house = await admin
      .collection('houses')
      .create({ address: '1 Quiet Way', city: 'Jupiter', state: 'FL', zip: '33458', community: fixture.community.id });
    await admin
      .collection('phones')
      .create({ phone_number: '+15615550122', primary: true, type: 'cell', house: house.id });
    const concern = await admin.collection('concerns').create({
      name: 'Garage',
      hint: 'Open garage',
      say: 'Your garage door is open.',
      added_by: fixture.director.id,
      community: fixture.community.id,
    });
    const manager = new PocketBase(url);
    await manager.collection('users').authWithPassword(fixture.manager.email, TEST_PASSWORD);
    const response = await fetch(`${url}/api/scms/call-resident`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: manager.authStore.token },
      body: JSON.stringify({ h_id: house.id, concerns: [{ id: concern.id, name: 'Garage', selected: true }] }),
    });
    const body = (await response.json()) as { message: string };
    expect(response.status).toBe(503);
    expect(body.message).toBe(
      'Calling residents is not set up on this server (missing TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER).',
    );
    expect(await admin.collection('calls').getFullList()).toEqual([]);
    expect((await admin.collection('houses').getOne(house.id)).pending_call_concerns_ids).toBe('');
  });
});

describe('npm run start:prod with a Twilio account', () => {
  test.each([
    ['no token', { TWILIO_FROM_NUMBER: '+15615550100' }, /not TWILIO_AUTH_TOKEN:/],
    ['no number', { TWILIO_AUTH_TOKEN: 'a-token' }, /not TWILIO_FROM_NUMBER:/],
    ['neither', {}, /not TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER:/],
  ])(
    'but %s: refuses to start, saying so',
    async (_label, given, message) => {
      const dir = mkdtempSync(join(tmpdir(), 'scms-prod-calls-'));
      try {
        const result = spawnSync(...scriptProcess('scripts/start-prod.ts'), {
          cwd: projectRoot,
          env: environment(dir, await freePort(), { TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, ...given }),
          encoding: 'utf8',
        });
        expect(result.status).toBe(2);
        expect(result.stderr).toContain('npm run start:prod refused to start:');
        expect(result.stderr).toMatch(message);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
