/**
 * Concerns screen (docs/product.md#concerns): the community's concern catalogue
 * from the local mirror, searchable by name, each with its spoken script;
 * directors add, edit and delete (online only).
 */
import { useState } from 'react';
import type { ConcernRecord } from '../../api/records.ts';
import { useSignedInStaff, type Staff } from '../../data/auth.ts';
import { useCallSettings } from '../../data/resources/callSettings.ts';
import { useConcerns } from '../../data/resources/concerns.ts';
import { useManagement } from '../../data/hooks.ts';
import { useCommunity } from '../../data/resources/community.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ItemErrorBoundary } from '../../ui/ErrorBoundary.tsx';
import { ListScreen } from '../../ui/ListScreen.tsx';
import { useConfirmedDelete } from '../../ui/useConfirmedDelete.ts';
import { Sheet } from '../../ui/Sheet.tsx';
import { VirtualList } from '../../ui/VirtualList.tsx';
import { ConcernCard } from './ConcernCard.tsx';
import { ConcernForm } from './ConcernForm.tsx';
import { CALL_SETTINGS_TITLE, CallSettingsForm } from './CallSettingsForm.tsx';
import { NoUserLogout } from './NoUserLogout.tsx';
import { useConcernActions } from './useConcernActions.ts';
import { OFFLINE_MANAGING_CONCERNS, OFFLINE_SAVING_CALL_SETTINGS } from '../../ui/offlineWords.ts';

export function ConcernsPage() {
  const me = useSignedInStaff();
  return me ? <ConcernsScreen me={me} /> : <NoUserLogout />;
}

type SheetState = { kind: 'add' } | { kind: 'edit'; concern: ConcernRecord } | { kind: 'call-settings' } | null;

const concernKey = (concern: ConcernRecord) => concern.id;
/** The spoken script needs room: one column on a phone, two from a tablet, three on a wide desk. */
const concernColumns = (width: number) => (width >= 1100 ? 3 : width >= 700 ? 2 : 1);

function ConcernsScreen({ me }: { me: Staff }) {
  const [search, setSearch] = useState('');
  const concerns = useConcerns(search);
  const community = useCommunity(me.community);
  // The mirror pulls the community first; until then the intro has no name to say.
  const communityName = community?.name ?? '…';
  const { director, canManage, blockedReason } = useManagement(OFFLINE_MANAGING_CONCERNS);
  const actions = useConcernActions(me);
  const [sheet, setSheet] = useState<SheetState>(null);
  const callSettings = useCallSettings(me.community);

  const { deleting, askDelete, cancelDelete, busy, confirmDelete } = useConfirmedDelete<ConcernRecord>(actions.remove);

  return (
    <ListScreen
      title="Concerns"
      add={
        director ? { label: 'Add Concern', disabled: !canManage, onClick: () => setSheet({ kind: 'add' }) } : undefined
      }
      actions={
        // The settings of the calls these concerns are spoken in: directors only, like the concerns.
        director ? (
          <button
            type="button"
            onClick={() => setSheet({ kind: 'call-settings' })}
            className="rounded border border-gray-300 bg-white px-4 py-2 font-medium hover:bg-gray-100"
          >
            {CALL_SETTINGS_TITLE}
          </button>
        ) : undefined
      }
      notice={blockedReason}
      search={{ value: search, onChange: setSearch, label: 'Search concerns', placeholder: 'Search concerns...' }}
      count={concerns?.length}
      countText={(n) => `${n} concern(s)`}
      emptyText="No concerns found"
      loadingLabel="Loading concerns"
      items={
        <VirtualList
          listKey="concerns"
          label="Concerns"
          className="mt-4"
          items={concerns ?? []}
          getKey={concernKey}
          estimateRowHeight={() => 260}
          columns={concernColumns}
          gap={12}
          // Tens of concerns, rarely hundreds: most lists are drawn whole.
          overscan={10}
          renderItem={(concern) => (
            <ItemErrorBoundary resetKey={concern.updated}>
              <ConcernCard
                concern={concern}
                communityName={communityName}
                controls={
                  director
                    ? {
                        disabled: !canManage,
                        blockedReason,
                        onEdit: () => setSheet({ kind: 'edit', concern }),
                        onDelete: () => askDelete(concern),
                      }
                    : null
                }
              />
            </ItemErrorBoundary>
          )}
        />
      }
    >
      <Sheet open={sheet?.kind === 'call-settings'} onClose={() => setSheet(null)} title={CALL_SETTINGS_TITLE}>
        {sheet?.kind === 'call-settings' && callSettings && (
          <CallSettingsForm
            saved={callSettings.record}
            blockedReason={blockedReason ? OFFLINE_SAVING_CALL_SETTINGS : null}
            onSubmit={async (values) => {
              if (await actions.saveCallSettings(values, callSettings.record)) setSheet(null);
            }}
          />
        )}
      </Sheet>
      <Sheet
        open={sheet !== null && sheet.kind !== 'call-settings'}
        onClose={() => setSheet(null)}
        title={sheet?.kind === 'edit' ? 'Edit Concern' : 'Add Concern'}
      >
        {sheet && sheet.kind !== 'call-settings' && (
          <ConcernForm
            key={sheet.kind === 'edit' ? sheet.concern.id : 'add'}
            concern={sheet.kind === 'edit' ? sheet.concern : undefined}
            communityName={communityName}
            blockedReason={blockedReason}
            onSubmit={async (values) => {
              const done =
                sheet.kind === 'edit' ? await actions.update(sheet.concern, values) : await actions.create(values);
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
        onCancel={cancelDelete}
      >
        {deleting && `"${deleting.name}" will be removed from the concern list. Calls already made keep their script.`}
      </ConfirmDialog>
    </ListScreen>
  );
}
