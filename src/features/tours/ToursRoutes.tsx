/**
 * The Tours screens under /tours, one chunk for the feature: the rounds of
 * the shift (ToursPage), the checkpoints (CheckpointsPage) and a walk
 * (WalkPage). An officer on a walk moves between them in a dead zone; they
 * share their data module, and one chunk keeps the bundler from cutting
 * the data layer the Homes screen loads into more pieces.
 */
import { Navigate, Route, Routes } from 'react-router-dom';
import { CheckpointsPage } from './CheckpointsPage.tsx';
import { ToursPage } from './ToursPage.tsx';
import { WalkPage } from './WalkPage.tsx';

export function ToursRoutes() {
  return (
    <Routes>
      <Route index element={<ToursPage />} />
      <Route path="checkpoints" element={<CheckpointsPage />} />
      <Route path="walk/:walkId" element={<WalkPage />} />
      <Route path="*" element={<Navigate to="/tours" replace />} />
    </Routes>
  );
}
