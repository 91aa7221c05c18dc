/**
 * The first screen after signing in with a temporary password (one a
 * director was shown, when adding the user or resetting the password):
 * nothing else opens until the user has a password of their own. Nothing of
 * the community is loaded meanwhile.
 */
import { useNavigate } from 'react-router-dom';
import type { ChangeOutcome } from '../../data/auth.ts';
import { useToast } from '../../ui/toast.tsx';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';

export function ChangePasswordPage({ onLogOut }: { onLogOut: () => void }) {
  const navigate = useNavigate();
  const toast = useToast();

  function changed(outcome: ChangeOutcome) {
    if (outcome === 'changed-signed-out') {
      toast({ title: 'Success', description: 'Password changed. Log in with your new password.' });
      navigate('/', { replace: true });
      return;
    }
    toast({ title: 'Success', description: 'Password changed' });
    navigate('/homes', { replace: true });
  }

  return (
    <div className="min-h-screen bg-gray-50">
      <header className="scheme-light flex items-center justify-between bg-black px-6 py-4 text-white">
        <span className="text-xl font-bold">SCMS</span>
        <button
          type="button"
          onClick={onLogOut}
          className="rounded border border-white/40 px-3 py-1.5 text-sm font-medium hover:bg-white/15"
        >
          Log out
        </button>
      </header>
      <main className="mx-auto mt-8 max-w-sm rounded-lg bg-white p-6 shadow sm:mt-12">
        <h1 className="mb-2 text-lg font-semibold">Choose a new password</h1>
        <p className="mb-4 text-sm text-gray-700">
          You logged in with a temporary password. Choose a password of your own (8 to 24 characters) to continue.
        </p>
        <ChangePasswordForm temporary onChanged={changed} />
      </main>
    </div>
  );
}
