/**
 * The proxy's configuration, generated from the directory
 * (server/directory/directoryFile.ts): one origin for every community.
 *
 * - `/c/<community>/…` goes to that community's server, the prefix
 *   stripped: the app's API calls, realtime, files and calls after sign-in
 *   (src/api/baseUrl.ts).
 * - `/api/scms/directory` goes to the directory service
 *   (server/directory/service.ts); the servers' own key-guarded lookup is
 *   not reachable through the proxy at all.
 * - Everything else (the app's files, and the login page's questions before
 *   anyone signs in) goes to the first server that is up: every server
 *   serves the same built app with its headers (pb_hooks/security_headers.pb.js),
 *   so the app is one app at one address, whichever server is down.
 *
 * Moving a community is changing its line in the directory and reloading
 * the proxy with the file this makes (scripts/cluster/caddy.ts).
 */
import type { DirectoryEntry } from '../../server/directory/directoryFile.ts';
import { serversOf } from '../../server/directory/directoryFile.ts';

export interface ProxyPlan {
  /** Caddy's site address: `http://127.0.0.1:8080` for a local cluster, `patrol.example.com` (TLS by Caddy) in production. */
  site: string;
  /** Caddy's admin endpoint, which `caddy reload` talks to (`127.0.0.1:2019`). */
  adminAddress: string;
  /** The directory service's address (`127.0.0.1:8099`). */
  directoryService: string;
  entries: readonly DirectoryEntry[];
}

/** `http://10.0.0.5:8101` → `10.0.0.5:8101`, as Caddy's upstreams are written. */
function upstream(server: string): string {
  return new URL(server).host;
}

/** The Caddyfile of a plan. */
export function caddyfile(plan: ProxyPlan): string {
  const local = plan.site.startsWith('http://');
  const servers = serversOf(plan.entries).map(upstream);
  const lines = [
    '# Generated from the cluster directory by scripts/cluster/caddyfile.ts: edit the directory, not this file.',
    '{',
    `\tadmin ${plan.adminAddress}`,
    ...(local ? ['\tauto_https off'] : []),
    '}',
    '',
    `${plan.site} {`,
    // A cluster on one machine answers on the loopback only.
    ...(local ? [`\tbind ${new URL(plan.site).hostname}`] : []),
    // Compressed, except the realtime stream (server-sent events), which must flow as written.
    '\t@compressible not path */api/realtime',
    '\tencode @compressible zstd gzip',
    '',
    '\thandle /api/scms/directory {',
    `\t\treverse_proxy ${plan.directoryService}`,
    '\t}',
    // The servers' account lookup is the directory service's alone, here and under every community's path.
    '\thandle /api/scms/directory/lookup* {',
    '\t\trespond 404',
    '\t}',
  ];
  for (const entry of plan.entries) {
    lines.push(
      '',
      `\thandle_path /c/${entry.slug}/* {`,
      '\t\trespond /api/scms/directory/lookup* 404',
      // Realtime (server-sent events) must reach the device the moment it is written.
      `\t\treverse_proxy ${upstream(entry.server)} {`,
      '\t\t\tflush_interval -1',
      '\t\t}',
      '\t}',
    );
  }
  lines.push(
    '',
    // A community the directory does not have: not the app's page in place of an API answer.
    '\thandle /c/* {',
    '\t\trespond 404',
    '\t}',
    '',
    '\t# The app and the questions asked before a sign-in: the first server that is up.',
    '\thandle {',
    `\t\treverse_proxy ${servers.join(' ')} {`,
    '\t\t\tlb_policy first',
    '\t\t\tlb_try_duration 5s',
    '\t\t\tfail_duration 30s',
    '\t\t\tflush_interval -1',
    '\t\t}',
    '\t}',
    '',
    ...(local
      ? []
      : [
          '\t# Phones keep the app for months: HSTS keeps them on https.',
          '\theader Strict-Transport-Security "max-age=31536000"',
        ]),
    '}',
    '',
  );
  return lines.join('\n');
}
