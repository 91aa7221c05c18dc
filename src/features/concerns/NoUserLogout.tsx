/**
 * A concerns screen without a user id cannot say who adds a
 * concern, so it warns, waits 2 seconds (docs/product.md#concerns), signs out and goes to /.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { signOut } from '../../data/auth.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast.tsx';

export const NO_USER_MESSAGE = 'Warning: No user found. Logging out...';
export const LOGOUT_DELAY_MS = 2_000;

export function NoUserLogout() {
  const toast = useToast();
  const navigate = useNavigate();
  useEffect(() => {
    toast({ title: NO_USER_MESSAGE });
    const timer = window.setTimeout(() => {
      signOut();
      navigate('/', { replace: true });
    }, LOGOUT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [toast, navigate]);
  return (
    <div className="mt-10 flex justify-center">
      <Spinner label="Logging out" />
    </div>
  );
}
