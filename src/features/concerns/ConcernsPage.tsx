import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function ConcernsPage() {
  return <PlaceholderScreen title="Concerns" />;
}
