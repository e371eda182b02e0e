import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/app';
import { initPreferences } from './lib/preferences-store';
import { getToken, useSession } from './lib/session-store';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

// Load the saved locale before the first render so texts never flash in another language. The
// session restore starts once the router and toasts exist; until it ends, SessionGate shows a spinner.
void initPreferences().then(() => {
  root.render(
    <StrictMode>
      <ConsoleApp />
    </StrictMode>,
  );
  if (getToken()) {
    void import('./lib/session').then((m) => m.restoreSession()).catch(() => useSession.getState().logout());
  } else useSession.getState().setStatus('anonymous');
});
