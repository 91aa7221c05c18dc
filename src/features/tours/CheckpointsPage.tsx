/**
 * Checkpoints (directors and managers): the community's checkpoints with
 * their short codes, where they are and what a scan shows; add and edit
 * (through the outbox: a checkpoint can be made at its spot in a dead
 * zone), delete (online: the server refuses a scanned one, saying why),
 * and 'Print checkpoint codes', a PDF of stickers made on the device.
 */
import { format } from 'date-fns';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSignedInStaff, type Staff } from '../../data/auth.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { useOnline } from '../../data/hooks.ts';
import { useCommunity } from '../../data/resources/community.ts';
import type { Checkpoint } from '../../data/resources/tourBoards.ts';
import { deleteCheckpoint, queueCheckpoint, useCheckpoints } from '../../data/resources/tours.ts';
import { qrText, shortCodeText } from '../../domain/checkpointCode.ts';
import type { CheckpointValues } from '../../domain/tourSchemas.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { saveBlob } from '../../ui/saveBlob.ts';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast.tsx';
import { CheckpointForm } from './CheckpointForm.tsx';
import { nfcAvailable, writeNfcTag } from './nfc.ts';
import { TOUR_WORDS } from './tourWords.ts';

export function CheckpointsPage() {
  const me = useSignedInStaff();
  if (!me) return null;
  // An officer's phone has no use for this screen: its link is only on managers' Tours screen.
  if (me.type === 'regular') return <Navigate to="/tours" replace />;
  return <CheckpointsScreen me={me} />;
}

type SheetState = { kind: 'add' } | { kind: 'edit'; checkpoint: Checkpoint } | null;

function CheckpointsScreen({ me }: { me: Staff }) {
  const { db } = useSyncEngine();
  const toast = useToast();
  const online = useOnline();
  const checkpoints = useCheckpoints();
  const community = useCommunity(me.community);
  const [sheet, setSheet] = useState<SheetState>(null);
  const [deleting, setDeleting] = useState<Checkpoint | null>(null);
  const [busy, setBusy] = useState(false);
  const [printing, setPrinting] = useState(false);
  const printable = (checkpoints ?? []).filter((checkpoint) => checkpoint.token && checkpoint.short_code);
  const waiting = (checkpoints?.length ?? 0) - printable.length;

  async function save(values: CheckpointValues, existing?: Checkpoint) {
    await queueCheckpoint(db, me, values, existing);
    setSheet(null);
    toast({ title: 'Success', description: existing ? 'Checkpoint saved' : 'Checkpoint added' });
  }

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteCheckpoint(db, deleting);
      toast({ title: 'Success', description: 'Checkpoint deleted' });
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  }

  // One write at a time, given up after 30 s or when the screen closes: a write left waiting would write
  // this checkpoint to the next tag the phone touches, perhaps another checkpoint's on a walk.
  const nfcWrite = useRef<AbortController | null>(null);
  useEffect(() => () => nfcWrite.current?.abort(), []);
  async function writeTag(checkpoint: Checkpoint) {
    nfcWrite.current?.abort();
    const abort = new AbortController();
    nfcWrite.current = abort;
    const timer = window.setTimeout(() => abort.abort(), 30_000);
    toast({ title: 'NFC', description: `Hold the phone to the tag for ${checkpoint.name}.` });
    try {
      await writeNfcTag(qrText(checkpoint.community, checkpoint.token), abort.signal);
      toast({ title: 'Success', description: `${checkpoint.name} written to the tag` });
    } catch (error) {
      // nfc.ts's errors are already the words to show; a write given up says nothing more.
      if (!abort.signal.aborted)
        toast({ title: 'Fail', description: (error as Error).message, variant: 'destructive' });
    } finally {
      window.clearTimeout(timer);
    }
  }

  async function print() {
    setPrinting(true);
    try {
      const { checkpointStickersPdf } = await import('./stickerPdf.ts');
      const pdf = await checkpointStickersPdf({
        communityName: community?.name ?? '',
        checkpoints: printable.map((checkpoint) => ({
          name: checkpoint.name,
          shortCode: checkpoint.short_code,
          qrText: qrText(checkpoint.community, checkpoint.token),
        })),
      });
      saveBlob(pdf, `checkpoint-codes-${format(new Date(), 'yyyy-MM-dd')}.pdf`);
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setPrinting(false);
    }
  }

  return (
    <div className="space-y-5">
      <Link to="/tours" className="text-sm font-medium underline">
        ← Tours
      </Link>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-bold">{TOUR_WORDS.checkpoints}</h1>
        <button
          type="button"
          disabled={printable.length === 0 || printing}
          onClick={() => void print()}
          className="rounded border border-gray-300 bg-white px-4 py-2 font-medium hover:bg-gray-100 disabled:opacity-50"
        >
          {printing ? 'Making the PDF…' : TOUR_WORDS.printCodes}
        </button>
        <button
          type="button"
          onClick={() => setSheet({ kind: 'add' })}
          className="rounded bg-black px-4 py-2 font-medium text-white hover:bg-gray-800"
        >
          {TOUR_WORDS.addCheckpoint}
        </button>
      </div>
      {waiting > 0 && <p className="text-sm text-amber-900">{TOUR_WORDS.codesPending}</p>}
      {!checkpoints ? (
        <div className="flex justify-center py-8">
          <Spinner label="Loading checkpoints" />
        </div>
      ) : checkpoints.length === 0 ? (
        <p className="text-gray-700">{TOUR_WORDS.noCheckpoints}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {checkpoints.map((checkpoint) => (
            <li key={checkpoint.id} className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
              <div className="flex items-start gap-2">
                <div className="mr-auto min-w-0">
                  <h2 className="font-semibold break-words">{checkpoint.name}</h2>
                  <p className="font-mono text-lg tracking-wider">
                    {checkpoint.short_code ? shortCodeText(checkpoint.short_code) : 'Code pending'}
                  </p>
                </div>
                <button
                  type="button"
                  aria-label={`Edit ${checkpoint.name}`}
                  onClick={() => setSheet({ kind: 'edit', checkpoint })}
                  className="min-h-11 rounded border border-gray-300 bg-white px-3 font-medium hover:bg-gray-100"
                >
                  Edit
                </button>
                {nfcAvailable() && checkpoint.token && (
                  <button
                    type="button"
                    aria-label={`Write ${checkpoint.name} to an NFC tag`}
                    onClick={() => void writeTag(checkpoint)}
                    className="min-h-11 rounded border border-gray-300 bg-white px-3 font-medium hover:bg-gray-100"
                  >
                    NFC
                  </button>
                )}
                <button
                  type="button"
                  aria-label={`Delete ${checkpoint.name}`}
                  disabled={!online}
                  title={online ? undefined : TOUR_WORDS.deleteOffline}
                  onClick={() => setDeleting(checkpoint)}
                  className="min-h-11 rounded border border-red-300 bg-white px-3 font-medium text-red-800 hover:bg-red-50 disabled:opacity-50"
                >
                  Delete
                </button>
              </div>
              <p className="mt-2 text-sm text-gray-700">
                {checkpoint.position
                  ? `Position set (±${Math.round(checkpoint.position.accuracy)} m), radius ${checkpoint.radius} m`
                  : `No position yet, radius ${checkpoint.radius} m`}
              </p>
              {checkpoint.instructions && <p className="mt-1 text-sm">{checkpoint.instructions}</p>}
              {checkpoint.question && <p className="mt-1 text-sm italic">{checkpoint.question}</p>}
            </li>
          ))}
        </ul>
      )}

      <Sheet
        open={sheet !== null}
        onClose={() => setSheet(null)}
        title={sheet?.kind === 'edit' ? TOUR_WORDS.editCheckpoint : TOUR_WORDS.addCheckpoint}
      >
        {sheet && (
          <CheckpointForm
            checkpoint={sheet.kind === 'edit' ? sheet.checkpoint : undefined}
            onSubmit={(values) => save(values, sheet.kind === 'edit' ? sheet.checkpoint : undefined)}
          />
        )}
      </Sheet>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete checkpoint"
        confirmLabel="Delete"
        destructive
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p>Delete {deleting?.name}? Its printed stickers stop working.</p>
      </ConfirmDialog>
    </div>
  );
}
