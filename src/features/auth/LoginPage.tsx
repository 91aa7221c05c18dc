import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { pb } from '../../api/client.ts';

interface DemoAccount {
  email: string;
  password: string;
}

/** Login page of spec §2; the full form rules arrive with the screens issue. */
export function LoginPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [demo, setDemo] = useState<DemoAccount | null>(null);

  useEffect(() => {
    // The demo hint exists only while the server runs in demo mode (DESIGN.md).
    fetch('/api/scms/demo')
      .then((response) => (response.ok ? (response.json() as Promise<DemoAccount>) : null))
      .then(setDemo)
      .catch(() => setDemo(null));
  }, []);

  if (pb.authStore.record) return <Navigate to="/homes" replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailed(false);
    try {
      await pb.collection('users').authWithPassword(email, password);
      navigate('/homes', { replace: true });
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="min-h-screen bg-gray-50">
      <header className="bg-black px-6 py-4 text-xl font-bold text-white">SCMS</header>
      <main className="mx-auto mt-12 max-w-sm rounded-lg bg-white p-6 shadow">
        <h1 className="mb-4 text-lg font-semibold">Log in to manage your community</h1>
        {failed && (
          <p role="alert" className="mb-4 rounded bg-red-100 px-3 py-2 text-red-800">
            Error authenticating
          </p>
        )}
        <form onSubmit={submit} className="space-y-4">
          <label className="block">
            <span className="text-sm font-medium">Email</span>
            <input
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              className="mt-1 block w-full rounded border border-gray-300 px-3 py-2"
            />
          </label>
          <label className="block">
            <span className="text-sm font-medium">Password</span>
            <input
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              className="mt-1 block w-full rounded border border-gray-300 px-3 py-2"
            />
          </label>
          <button type="submit" disabled={busy} className="w-full rounded bg-black py-2 font-medium text-white disabled:opacity-60">
            {busy ? 'Logging in…' : 'Login'}
          </button>
        </form>
        {demo && (
          <p className="mt-6 text-sm text-gray-600">
            Demo account: {demo.email} and {demo.password}
          </p>
        )}
      </main>
    </div>
  );
}
