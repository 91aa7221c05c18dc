/** The signed-in user's community record, from the mirror (the first collection a load pulls). */
import { useSyncEngine } from '../DataProvider.tsx';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';

/** The community's record; undefined until the mirror has it. */
export function useCommunity(communityId: string) {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['communities'], () => db.communities.get(communityId), [communityId]);
}

/** The community's name for the call script (from the mirror). */
export function useCommunityName(communityId: string | undefined): string | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['communities'],
    async () => (communityId ? (await db.communities.get(communityId))?.name : undefined),
    [communityId],
  );
}
