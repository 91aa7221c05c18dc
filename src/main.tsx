import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { UpdatePrompt } from './app/UpdatePrompt.tsx';
import './index.css';
import { announceSignedInUser, registerServiceWorker } from './sw-register.ts';

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
