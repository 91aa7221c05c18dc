/**
 * The navigation bar's sync state: online or offline, an expired session,
 * how many changes wait to be sent, how many failed (open the panel to retry
 * or discard), and when the last sync finished. What to do about an expired
 * session is said by the layout's banner (SessionExpiredBanner).
 *
 * The panel is a small dialog under the navigation bar (Headless UI's
 * Dialog, which the layout's drawer loads anyway): its Popover would bring
 * the floating-ui positioning library into every screen's first load (about
 * 8 kB of gzipped JS, measured with the bundle budget) to place one panel.
 */
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useState } from 'react';
import { formatDistanceToNow } from 'date-fns';
import { useSyncEngine } from '../data/DataProvider.tsx';
import { useOnline, useOutboxEntries, useSyncStatus, type SyncStatus } from '../data/hooks.ts';
import { useOnlineActions } from '../data/onlineActions.ts';
import { formatDateTime } from '../ui/dateTime.ts';
import { retryEntry } from '../data/sync/outbox.ts';
import type { OutboxEntry } from '../data/mirror/db.ts';
import type { SendingProgress } from '../data/sync/replay.ts';
import { lazyPart } from '../ui/lazyPart.tsx';
import { StorageStatus } from './StorageStatus.tsx';
import { OFFLINE_SYNC_NOW } from '../ui/offlineWords.ts';

/** 'Sending 2 of 5 · photo 40 %': an entry with photos on its way. */
export function sendingText({ entry, of, sent, total }: SendingProgress): string {
  const percent = total > 0 ? Math.min(100, Math.floor((100 * sent) / total)) : 0;
  return `Sending ${entry} of ${of} · photo ${percent} %`;
}

/**
 * What the badge says, and its colour: the first state that holds, in
 * order. An expired session first: nothing is synced, whatever the
 * connection says; offline, how much of the officer's work is only on this
 * phone; a first load still running (the mirror is not complete yet) is not
 * 'Synced'.
 */
function badgeOf(status: SyncStatus): { colour: string; summary: string } {
  const waiting = status.pending + status.failed;
  const states: Array<[boolean, string, () => string]> = [
    [status.authRequired, 'bg-red-600', () => 'Session expired'],
    [status.conflicts > 0, 'bg-red-600', () => `${status.conflicts} to resolve`],
    [!status.online, 'bg-gray-500', () => (waiting > 0 ? `Offline · ${waiting} waiting` : 'Offline')],
    [Boolean(status.sending), 'bg-amber-500', () => sendingText(status.sending!)],
    [status.failed > 0, 'bg-red-600', () => `${status.failed} failed`],
    [status.pending > 0, 'bg-amber-500', () => `${status.pending} to send`],
    [Object.keys(status.loading ?? {}).length > 0, 'bg-sky-500', () => 'Loading…'],
  ];
  const [, colour, summary] = states.find(([holds]) => holds) ?? [true, 'bg-green-600', () => 'Synced'];
  return { colour, summary: summary() };
}

// Loaded when a conflict is opened: its value formatting (phone numbers) stays out of every screen's first load.
const ConflictSheet = lazyPart(() => import('./ConflictSheet.tsx').then((m) => m.ConflictSheet));

export function SyncBadge() {
  const status = useSyncStatus();
  const engine = useSyncEngine();
  const { discardOutboxEntry } = useOnlineActions();
  const entries = useOutboxEntries() ?? [];
  const [open, setOpen] = useState(false);
  const [resolving, setResolving] = useState<OutboxEntry | null>(null);
  // 'Sync now' pressed offline says why nothing happens.
  const [syncNote, setSyncNote] = useState<string | null>(null);
  const online = useOnline();
  const { colour, summary } = badgeOf(status);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-expanded={open}
        className="flex items-center gap-2 rounded-full border border-white/30 px-3 py-1 text-sm"
        aria-label={`Sync status: ${summary}`}
      >
        <span className={`h-2.5 w-2.5 rounded-full ${colour}`} aria-hidden="true" />
        {summary}
      </button>
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false);
          setSyncNote(null);
        }}
        className="relative z-50"
      >
        <DialogBackdrop className="fixed inset-0 bg-scrim/10" />
        {/* Under the navigation bar, at its right end, where the badge is. */}
        <div className="fixed inset-x-0 top-14 mx-auto flex max-w-6xl justify-end px-2 sm:px-4">
          <DialogPanel className="w-full max-w-80 rounded-lg bg-white p-4 text-sm text-gray-900 shadow-xl">
            <DialogTitle className="sr-only">Sync</DialogTitle>
            <p className="font-medium">{status.online ? 'Online' : 'Offline — your changes are kept on this device'}</p>
            <p className="mt-1 text-gray-600">
              {status.pending} waiting to be sent · {status.failed} failed
              {status.conflicts > 0 && ` · ${status.conflicts} to resolve`}
            </p>
            <p className="mt-1 text-gray-600">
              {status.lastSyncAt
                ? `Last sync ${formatDistanceToNow(status.lastSyncAt, { addSuffix: true })}`
                : 'Not synced yet'}
            </p>
            <StorageStatus refresh={status.pending} />
            {entries.length > 0 && (
              <ul className="mt-3 max-h-64 space-y-2 overflow-y-auto">
                {entries.map((entry) => (
                  <li key={entry.seq} className="rounded border border-gray-200 p-2">
                    <p className="font-medium">{entry.label}</p>
                    <p className="text-xs text-gray-500">{formatDateTime(entry.createdAt)}</p>
                    {entry.status === 'conflict' && (
                      <>
                        <p className="mt-1 text-red-700">
                          Someone else changed this while you were offline. Choose what to keep.
                        </p>
                        <button
                          type="button"
                          className="mt-2 min-h-11 rounded bg-black px-3 py-1 text-white"
                          onClick={() => {
                            setOpen(false);
                            setResolving(entry);
                          }}
                        >
                          Resolve
                        </button>
                      </>
                    )}
                    {entry.status === 'failed' && (
                      <>
                        <p className="mt-1 text-red-700">{entry.error}</p>
                        <div className="mt-2 flex gap-2">
                          <button
                            type="button"
                            className="rounded bg-black px-2 py-1 text-white"
                            onClick={() => void retryEntry(engine.db, entry.seq!)}
                          >
                            Retry
                          </button>
                          <button
                            type="button"
                            className="rounded border border-gray-300 px-2 py-1"
                            onClick={() => void discardOutboxEntry(entry.seq!)}
                          >
                            Discard
                          </button>
                        </div>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <button
              type="button"
              className="mt-3 min-h-11 w-full rounded border border-gray-300 py-1"
              onClick={() => {
                setSyncNote(online ? null : OFFLINE_SYNC_NOW);
                if (online) void engine.syncNow();
              }}
            >
              Sync now
            </button>
            {syncNote && (
              <p role="status" className="mt-2 text-gray-700">
                {syncNote}
              </p>
            )}
          </DialogPanel>
        </div>
      </Dialog>
      {resolving && <ConflictSheet entry={resolving} onClose={() => setResolving(null)} />}
    </>
  );
}
