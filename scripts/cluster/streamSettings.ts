/**
 * A production server's stream (docs/deploy.md, "Several servers"), from
 * the environment: with SCMS_STREAM_S3_BUCKET set, `npm run start:prod`
 * runs Litestream beside PocketBase (its database to the bucket, under
 * SCMS_STREAM_PATH) and has PocketBase keep uploads in the same bucket;
 * `npm run cluster -- restore` brings the database back from there.
 */
import type PocketBase from 'pocketbase';
import type { ReplicaTarget } from './litestream.ts';

type Env = Record<string, string | undefined>;

const value = (environment: Env, name: string) => environment[name]?.trim() || undefined;

/** The stream's target, or null when no bucket is set (a server without a stream); throws when a setting is missing. */
export function streamTarget(environment: Env): ReplicaTarget | null {
  const bucket = value(environment, 'SCMS_STREAM_S3_BUCKET');
  if (!bucket) return null;
  const target = {
    bucket,
    region: value(environment, 'SCMS_STREAM_S3_REGION') ?? '',
    endpoint: value(environment, 'SCMS_STREAM_S3_ENDPOINT') ?? '',
    accessKeyId: value(environment, 'SCMS_STREAM_S3_ACCESS_KEY') ?? '',
    secretAccessKey: value(environment, 'SCMS_STREAM_S3_SECRET') ?? '',
    path: value(environment, 'SCMS_STREAM_PATH') ?? '',
  };
  const missing = (
    [
      ['region', 'SCMS_STREAM_S3_REGION'],
      ['accessKeyId', 'SCMS_STREAM_S3_ACCESS_KEY'],
      ['secretAccessKey', 'SCMS_STREAM_S3_SECRET'],
      ['path', 'SCMS_STREAM_PATH'],
    ] as const
  ).filter(([key]) => target[key] === '');
  if (missing.length > 0)
    throw new Error(`SCMS_STREAM_S3_BUCKET is set, but not ${missing.map(([, name]) => name).join(', ')}.`);
  if (!/^[a-z0-9][a-z0-9/-]*$/.test(target.path))
    throw new Error(`SCMS_STREAM_PATH '${target.path}' must be a folder name like servers/palm-grove.`);
  return target;
}

/** PocketBase's S3 file storage in the stream's bucket: uploads are off the machine too. */
export async function keepUploadsIn(pb: PocketBase, target: ReplicaTarget): Promise<void> {
  await pb.settings.update({
    s3: {
      enabled: true,
      bucket: target.bucket,
      region: target.region,
      endpoint: target.endpoint,
      accessKey: target.accessKeyId,
      secret: target.secretAccessKey,
      forcePathStyle: target.endpoint !== '',
    },
  });
}
