/**
 * A community's name in the links officers are given (`/?c=palm-grove`),
 * in the proxy's routes (`/c/palm-grove/…`) and in the cluster's directory
 * (server/directory/directoryFile.ts): lower-case letters, digits and
 * dashes, 1 to 40 characters, no dash at either end.
 */
export const COMMUNITY_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** The server path of a community: the prefix its API has behind the proxy. */
export function communityServerPath(slug: string): string {
  return `/c/${slug}`;
}
