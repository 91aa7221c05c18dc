import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { UpdatePrompt } from './app/UpdatePrompt.tsx';
import './index.css';
import { announceSignedInUser, registerServiceWorker } from './sw-register.ts';
import { applyStoredTheme } from './ui/theme.ts';

// Before the first render: a theme chosen in the menu must not flash the other one.
applyStoredTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
    <UpdatePrompt />
  </StrictMode>,
);
registerServiceWorker();
announceSignedInUser();
