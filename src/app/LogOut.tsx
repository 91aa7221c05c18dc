/**
 * The Log out button's flow (docs/product.md#log-out). Log out removes the
 * user's copy of the community from the device (session.ts). What the user
 * wrote and the server has not confirmed is never thrown away silently:
 * with entries in the outbox, a question first says 'N changes are not sent
 * yet', with
 * - 'Send now' (online, with a session the server accepts): the outbox is
 *   replayed; once it is empty the log out goes on; entries the server
 *   refused, or that could not be sent, are named and the question stays;
 * - 'Log out anyway': those entries alone stay on the device and are sent
 *   after this user's next sign-in;
 * - Cancel: nothing happens.
 * With nothing unsent there is no question.
 */
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSyncEngine } from '../data/DataProvider.tsx';
import { useOutboxEntries, useSyncStatus } from '../data/hooks.ts';
import { LEASE_TTL_MS } from '../data/sync/lease.ts';
import { outboxEntries, retryEntry } from '../data/sync/outbox.ts';
import { unsentCount } from '../data/mirror/wipe.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { useToast } from '../ui/toast.tsx';
import { logOut } from './session.ts';

/** Between tries of 'Send now' while another replayer holds the outbox. */
const BUSY_PAUSE_MS = 500;

/** The question's title ('N changes are not sent yet', in the singular for one). */
export function unsentTitle(count: number): string {
  return count === 1 ? '1 change is not sent yet' : `${count} changes are not sent yet`;
}

export interface LogOutFlow {
  /** The Log out button's action. */
  askLogOut: () => void;
  /** The question and the 'Logging out...' cover, rendered once by the layout. */
  view: ReactNode;
}

export function useLogOut(): LogOutFlow {
  const engine = useSyncEngine();
  const { online, authRequired } = useSyncStatus();
  const entries = useOutboxEntries();
  const navigate = useNavigate();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const [sending, setSending] = useState(false);
  /** A 'Send now' ended with entries still in the outbox: say which and why. */
  const [triedSending, setTriedSending] = useState(false);
  const [leaving, setLeaving] = useState(false);

  async function leave() {
    setAsking(false);
    setLeaving(true);
    const kept = await unsentCount(engine.db);
    try {
      await logOut(engine.userId, engine);
    } catch (error) {
      // Signed out all the same (logOut); what is left goes at the next user's start.
      console.error('Removing the data of this device failed:', error);
    }
    navigate('/', { replace: true });
    if (kept > 0)
      toast({
        title: 'Logged out',
        description: `${kept} change${kept === 1 ? '' : 's'} will be sent after you log in again.`,
      });
  }

  async function askLogOut() {
    if (leaving) return;
    if ((await unsentCount(engine.db)) === 0) {
      await leave();
      return;
    }
    setTriedSending(false);
    setAsking(true);
  }

  async function sendNow() {
    setSending(true);
    try {
      // The user asks to send everything: entries the server refused before are tried again too (as their Retry does).
      for (const entry of await outboxEntries(engine.db))
        if (entry.status === 'failed') await retryEntry(engine.db, entry.seq!);
      // The existing replay, as 'Sync now' runs it; retryNow: the user asked, so no waiting out a back-off.
      // The service worker may be sending the same entries (the retry above wakes Background Sync):
      // while it holds the outbox, wait for it rather than call its entries unsent.
      const waitUntil = Date.now() + LEASE_TTL_MS;
      while ((await engine.replay({ retryNow: true })) === 'busy' && Date.now() < waitUntil)
        await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));
    } finally {
      setSending(false);
    }
    if ((await unsentCount(engine.db)) === 0) await leave();
    else setTriedSending(true);
  }

  const canSend = online && !authRequired;
  const refused = entries?.filter((entry) => entry.status === 'failed') ?? [];
  // Changes someone else overtook are never sent as they are: they wait for the person's choice.
  const toDecide = entries?.filter((entry) => entry.status === 'conflict').length ?? 0;
  const unsent = (entries?.length ?? 0) - refused.length - toDecide;
  // Everything was sent meanwhile (the connection came back): nothing to keep, a plain log out.
  const allSent = entries?.length === 0 && !sending;
  const view = (
    <>
      <ConfirmDialog
        open={asking && !leaving}
        title={allSent ? 'All changes are sent' : unsentTitle(entries?.length ?? 0)}
        confirmLabel={allSent ? 'Log out' : 'Send now'}
        confirmDisabled={!allSent && !canSend}
        busy={sending}
        secondaryLabel={allSent ? undefined : 'Log out anyway'}
        onSecondary={() => void leave()}
        onConfirm={() => void (allSent ? leave() : sendNow())}
        onCancel={() => setAsking(false)}
      >
        {allSent ? (
          <p>Nothing is waiting to be sent.</p>
        ) : (
          <p>
            {canSend
              ? 'Send them now, or log out anyway: '
              : authRequired
                ? 'Your session expired, so they cannot be sent now. If you log out, '
                : 'You are offline. If you log out, '}
            they stay on this device and are sent after you log in again. Everything else is removed from this device.
          </p>
        )}
        {triedSending && !sending && !allSent && (
          <div role="alert" className="mt-3 rounded bg-red-50 p-2 text-red-800">
            {unsent > 0 && <p>{unsent} could not be sent: the server did not answer. Try again, or log out anyway.</p>}
            {toDecide > 0 && (
              <p>
                {toDecide} changed by someone else while you were offline: choose what to keep (Resolve, in the sync
                panel), or log out anyway.
              </p>
            )}
            {refused.length > 0 && (
              <>
                <p>Refused by the server:</p>
                <ul className="mt-1 list-disc pl-5">
                  {refused.map((entry) => (
                    <li key={entry.seq}>
                      {entry.label}: {entry.error}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </ConfirmDialog>
      {leaving && (
        <div className="fixed inset-0 z-[60] flex flex-col items-center justify-center gap-3 bg-white/90">
          <Spinner label="Logging out" />
          <p className="text-sm text-gray-700">Logging out...</p>
        </div>
      )}
    </>
  );
  return { askLogOut: () => void askLogOut(), view };
}
