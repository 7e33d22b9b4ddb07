import { RouterProvider } from 'react-router';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { setNotFoundHandler } from '@/lib/api';
import { authStore } from '@/lib/auth-store';
import { AppProvider } from './provider';
import { router } from './router';

// A 404 answer from the API shows the 404 page inside the app, without a reload.
setNotFoundHandler(() => {
  if (router.state.location.pathname !== '/404') void router.navigate('/404', { replace: true });
});

// Signing in or out in another tab applies here too.
window.addEventListener('storage', (e) => {
  if (e.key === null || e.key === STORAGE_KEYS.token || e.key === STORAGE_KEYS.user) authStore.reload();
});

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
