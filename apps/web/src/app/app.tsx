import { RouterProvider } from 'react-router';
import { setNotFoundHandler } from '@/lib/api';
import { AppProvider } from './provider';
import { router } from './router';

// A 404 answer from the API shows the 404 page inside the app, without a reload.
setNotFoundHandler(() => {
  if (router.state.location.pathname !== '/404') void router.navigate('/404', { replace: true });
});

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
