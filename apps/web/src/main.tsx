import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
import { FALLBACK_LANGUAGE } from '@phasewatch/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { i18n, isLanguage, loadCatalogue } from './i18n';
import { afterPaintWhenIdle } from './lib/after-paint';

const root = document.getElementById('root');
const language = isLanguage(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;
// The first render waits for the user's catalogue (a few KB); the fallback catalogue follows when the
// browser is first idle (a key missing in the user's catalogue is rare, and the first screen does not wait).
void loadCatalogue(language).then(() => {
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }
  afterPaintWhenIdle(() => void loadCatalogue(FALLBACK_LANGUAGE), 3000);
});
