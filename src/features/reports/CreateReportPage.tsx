import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function CreateReportPage() {
  return <PlaceholderScreen title="Create report" />;
}
