/**
 * Concerns screen (spec §2, §6, §8): the community's concern catalogue
 * from the local mirror, searchable by name, each with its spoken script;
 * directors add, edit and delete (online only).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import type { ConcernRecord } from '../../api/records.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { useConcerns } from '../../data/hooks.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { signedInStaff, useManagement, type Staff } from '../users/useManagement.ts';
import { ConcernCard } from './ConcernCard.tsx';
import { ConcernForm } from './ConcernForm.tsx';
import { NoUserLogout } from './NoUserLogout.tsx';
import { CONCERNS_OFFLINE_REASON, useConcernActions } from './useConcernActions.ts';

export function ConcernsPage() {
  const me = signedInStaff();
  return me ? <ConcernsScreen me={me} /> : <NoUserLogout />;
}

type SheetState = { kind: 'add' } | { kind: 'edit'; concern: ConcernRecord } | null;

function ConcernsScreen({ me }: { me: Staff }) {
  const [search, setSearch] = useState('');
  const concerns = useConcerns(search);
  const { db } = useSyncEngine();
  const community = useLiveQuery(() => db.communities.get(me.community), [db, me.community]);
  // The mirror pulls the community first; until then the intro has no name to say.
  const communityName = community?.name ?? '…';
  const { director, canManage, blockedReason } = useManagement(CONCERNS_OFFLINE_REASON);
  const actions = useConcernActions(me);
  const [sheet, setSheet] = useState<SheetState>(null);
  const [deleting, setDeleting] = useState<ConcernRecord | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    // Either way the question is answered: a failure is told by a toast.
    await actions.remove(deleting);
    setBusy(false);
    setDeleting(null);
  }

  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Concerns</h1>
        {director && (
          <button type="button" disabled={!canManage} onClick={() => setSheet({ kind: 'add' })} className="rounded bg-black px-4 py-2 font-medium text-white disabled:cursor-not-allowed disabled:opacity-50">
            Add Concern
          </button>
        )}
      </div>
      {blockedReason && (
        <p role="status" className="mt-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {blockedReason}
        </p>
      )}
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <input
          type="search"
          aria-label="Search concerns"
          placeholder="Search concerns..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="w-full rounded border border-gray-300 bg-white px-3 py-2 focus:border-black focus:ring-1 focus:ring-black focus:outline-none sm:max-w-sm"
        />
        {concerns && <p className="text-sm text-gray-700">{concerns.length} concern(s)</p>}
      </div>

      {concerns === undefined ? (
        <div className="mt-10 flex justify-center">
          <Spinner label="Loading concerns" />
        </div>
      ) : concerns.length === 0 ? (
        <p className="mt-10 text-center text-gray-700">No concerns found</p>
      ) : (
        <ul className="mt-4 grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
          {concerns.map((concern) => (
            <ConcernCard
              key={concern.id}
              concern={concern}
              communityName={communityName}
              controls={
                director ? { disabled: !canManage, blockedReason, onEdit: () => setSheet({ kind: 'edit', concern }), onDelete: () => setDeleting(concern) } : null
              }
            />
          ))}
        </ul>
      )}

      <Sheet open={sheet !== null} onClose={() => setSheet(null)} title={sheet?.kind === 'edit' ? 'Edit Concern' : 'Add Concern'}>
        {sheet && (
          <ConcernForm
            key={sheet.kind === 'edit' ? sheet.concern.id : 'add'}
            concern={sheet.kind === 'edit' ? sheet.concern : undefined}
            communityName={communityName}
            blockedReason={blockedReason}
            onSubmit={async (values) => {
              const done = sheet.kind === 'edit' ? await actions.update(sheet.concern, values) : await actions.create(values);
              if (done) setSheet(null);
            }}
          />
        )}
      </Sheet>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete concern?"
        confirmLabel="Delete"
        destructive
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        {deleting && `"${deleting.name}" will be removed from the concern list. Calls already made keep their script.`}
      </ConfirmDialog>
    </section>
  );
}
