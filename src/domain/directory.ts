/**
 * The directory route, `POST /api/scms/directory` with `{"email": …}`: which
 * server holds an account (src/api/baseUrl.ts). Answered by PocketBase on a
 * single server (pb_hooks/directory.pb.js: always this server, '') and by
 * the directory service in front of several (server/directory/). Both read
 * the request with this one rule, so a bad request gets the same answer
 * from either.
 */
import { z } from 'zod';

/** The request body's limit, in bytes: an e-mail address is at most 254 characters. */
export const DIRECTORY_BODY_LIMIT = 1024;

const NOT_AN_EMAIL = 'Not a valid email';

const directoryRequest = z.strictObject({
  email: z.string().trim().min(1).max(254).pipe(z.email()),
});

export type DirectoryRequest = z.infer<typeof directoryRequest>;

/** The reading of a request body: the e-mail (lower-cased), or the 400 message to answer. */
export type DirectoryRequestReading = { email: string } | { problem: string };

/** Reads a directory request's raw body. */
export function readDirectoryRequest(raw: string): DirectoryRequestReading {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { problem: 'The request body is not valid JSON.' };
  }
  const parsed = directoryRequest.safeParse(value);
  if (!parsed.success) {
    const onEmail = parsed.error.issues.some((issue) => issue.path[0] === 'email');
    return { problem: onEmail ? NOT_AN_EMAIL : 'Send a JSON object with only an email.' };
  }
  return { email: parsed.data.email.toLowerCase() };
}
