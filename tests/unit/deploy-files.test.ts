/**
 * The deploy files kept in the repo (deploy/, docs/deploy.md) say what the
 * guide says: the Caddyfile, parsed into its site blocks and directives,
 * serves one https site and proxies it to the port the unit starts the
 * server on, unbuffered (realtime); the systemd unit restarts on failure and
 * runs `npm run start:prod`; and the production checks refuse what they must.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CONFIG } from '../../scripts/config.ts';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { backupSettings, productionProblems } from '../../scripts/production.ts';
import { parseCaddyfile } from '../support/caddyfile.ts';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');

describe('deploy/Caddyfile', () => {
  const sites = parseCaddyfile(read('deploy/Caddyfile'));
  const unit = read('deploy/scms-patrol.service');
  const port = /^Environment=PORT=(\d+)$/m.exec(unit)?.[1];

  test('one site, a domain name (Caddy gets its certificate), proxied to the port of the unit, unbuffered', () => {
    expect(sites).toHaveLength(1);
    const site = sites[0]!;
    expect(site.name).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(site.name).not.toMatch(/^(localhost|127\.|http:)/);
    const proxy = site.block.find((d) => d.name === 'reverse_proxy');
    expect(proxy?.args).toEqual([`127.0.0.1:${port}`]);
    expect(proxy?.block.find((d) => d.name === 'flush_interval')?.args).toEqual(['-1']);
    expect(site.block.find((d) => d.name === 'header')?.args[0]).toBe('Strict-Transport-Security');
  });

  test('the parser refuses an unbalanced file (so a broken Caddyfile fails this test)', () => {
    expect(() => parseCaddyfile('a.example.com {\n reverse_proxy x\n')).toThrow('unclosed');
    expect(() => parseCaddyfile('}\n')).toThrow('unexpected');
  });
});

describe('deploy/scms-patrol.service', () => {
  const unit = read('deploy/scms-patrol.service');
  test('restarts on failure, runs npm run start:prod on the loopback, reads its settings from a file', () => {
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^ExecStart=\S*npm run start:prod$/m);
    expect(unit).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
    expect(unit).toMatch(/^EnvironmentFile=\S+$/m);
    expect(unit).toMatch(/^WantedBy=multi-user\.target$/m);
  });
});

describe('the units of several servers', () => {
  test('a server per instance: its own settings file, npm run start:prod, restarted on failure', () => {
    const unit = read('deploy/scms-patrol@.service');
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/scms-patrol\/%i\.env$/m);
    expect(unit).toMatch(/^ExecStart=\S*npm run start:prod$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
  });
  test('the directory service reads the directory the guide names, with its key from a file', () => {
    const unit = read('deploy/scms-directory.service');
    expect(unit).toMatch(/^ExecStart=\S*npm run cluster -- directory --directory \/etc\/scms-patrol\/directory\.txt/m);
    expect(unit).toMatch(/^EnvironmentFile=\S+$/m);
    expect(read('docs/deploy.md')).toContain('/etc/scms-patrol/directory.txt');
  });
});

describe('docs/deploy.md', () => {
  const guide = read('docs/deploy.md');
  test('uses the files in the repo and covers what a deploy needs', () => {
    for (const needed of [
      'deploy/Caddyfile',
      'deploy/scms-patrol.service',
      'npm run start:prod',
      'npm run backup',
      'npm run restore --',
      '/api/scms/call-status',
      'AI_BASE_URL',
      'SCMS_BACKUP_S3_BUCKET',
      '## Upgrade',
      '## Roll back',
    ]) {
      expect(guide).toContain(needed);
    }
  });
});

describe('production checks', () => {
  const complete = {
    SCMS_SUPERUSER_EMAIL: 'owner@patrol.test',
    SCMS_SUPERUSER_PASSWORD: 'long-enough-secret',
    SCMS_PUBLIC_URL: 'https://patrol.example.com',
  };
  test('a complete environment passes; http passes only with SCMS_ALLOW_HTTP=1', () => {
    expect(productionProblems(complete)).toEqual([]);
    expect(productionProblems({ ...complete, SCMS_PUBLIC_URL: 'http://127.0.0.1:8090' })).toHaveLength(1);
    expect(productionProblems({ ...complete, SCMS_PUBLIC_URL: 'http://127.0.0.1:8090', SCMS_ALLOW_HTTP: '1' })).toEqual(
      [],
    );
    expect(productionProblems({})).toHaveLength(3);
  });

  test('backups: daily and 7 by default, S3 only complete, a bad count refused', () => {
    expect(backupSettings({})).toMatchObject({ cron: '0 3 * * *', cronMaxKeep: 7, s3: { enabled: false } });
    expect(() => backupSettings({ SCMS_BACKUP_S3_BUCKET: 'b' })).toThrow('region, endpoint, accessKey, secret');
    expect(() => backupSettings({ SCMS_BACKUP_KEEP: '0' })).toThrow('SCMS_BACKUP_KEEP');
    expect(() => backupSettings({ SCMS_BACKUP_KEEP: 'many' })).toThrow('SCMS_BACKUP_KEEP');
    const s3 = {
      SCMS_BACKUP_S3_BUCKET: 'scms-backups',
      SCMS_BACKUP_S3_REGION: 'us-east-1',
      SCMS_BACKUP_S3_ENDPOINT: 'https://s3.example.com',
      SCMS_BACKUP_S3_ACCESS_KEY: 'key',
      SCMS_BACKUP_S3_SECRET: 'secret',
    };
    expect(backupSettings(s3).s3).toMatchObject({ enabled: true, bucket: 'scms-backups', forcePathStyle: false });
  });

  test('every variable the production scripts read is in the configuration list (and so in the README)', () => {
    const sources = ['scripts/production.ts', 'scripts/backups.ts', 'scripts/start-prod.ts', 'scripts/start.ts']
      .map((file) => read(file))
      .join('\n');
    const names = new Set(
      [...sources.matchAll(/(?:env|value)\(\s*(?:environment,\s*)?'([A-Z0-9_]+)'/g)].map((m) => m[1]!),
    );
    expect(names.size).toBeGreaterThan(14);
    const listed = new Set(CONFIG.map((entry) => entry.name));
    expect([...names].filter((name) => !listed.has(name))).toEqual([]);
  });
});
