import { AppShell, Box, Burger, Center, Group, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBolt } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { LanguageMenu, ThemeMenu } from '@/components/preferences';
import { findActiveTrail, NavMenu } from '@/components/ui/nav-menu';
import { ScrollToTop } from '@/components/ui/scroll-to-top';
import { PUBLIC_ROUTES, paths } from '@/config/paths';
import { ensureValidToken } from '@/features/auth';
import { useTariffsMenuTarget } from '@/features/locations';
import { NotificationBell } from '@/features/notifications';
import { chooseLanguage } from '@/features/profile';
import { HubStatusIndicator } from '@/features/realtime';
import { afterPaintWhenIdle } from '@/lib/after-paint';
import { apiClient } from '@/lib/api';
import { useAuth } from '@/lib/auth-store';
import { foxMode, useFoxMode } from '@/lib/fox-mode';
import { menuEntries } from './menu-entries';

const MobileMenu = lazy(() => import('./mobile-menu').then((m) => ({ default: m.MobileMenu })));

function Brand() {
  const { t } = useTranslation();
  return (
    <UnstyledButton
      component={Link}
      to={paths.dashboard}
      style={{ display: 'flex', alignItems: 'center', gap: 8 }}
      aria-label={t('app.name')}
    >
      <Center w={30} h={30} bg="brand.6" style={{ borderRadius: 8 }}>
        <IconBolt size={20} color="white" />
      </Center>
      <Text fw={700} size="lg">
        {t('app.name')}
      </Text>
    </UnstyledButton>
  );
}

/**
 * The root layout of every route: verifies the token on each navigation (not on the public sign-in
 * screens), scrolls to the top after each navigation, and draws the chrome (header menu on wide screens,
 * a drawer below 576 px, nothing in fox mode).
 */
export function RootLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const { token } = useAuth();
  const foxStored = useFoxMode();
  const [drawerOpen, drawer] = useDisclosure(false);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const isPublic = PUBLIC_ROUTES.includes(location.pathname);

  // /sign-in-fox switches the embedded mode on; the normal sign-in switches it off again.
  const fox = location.pathname === paths.signInFox ? true : location.pathname === paths.signIn ? false : foxStored;
  useEffect(() => {
    if (fox !== foxStored) foxMode.set(fox);
  }, [fox, foxStored]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each navigation, which the path marks
  useEffect(() => {
    window.scrollTo(0, 0);
    apiClient.resetNotFound();
    drawer.close();
  }, [location.pathname, drawer.close]);

  // location.key changes on every navigation, also to the same path.
  // Asked once the screen has painted and the browser is idle: the screen's own first content does not wait for it. Not on the way
  // out: signing out revokes the token meanwhile (the check would be a 401 in the console).
  useEffect(() => {
    if (isPublic || !location.key || location.pathname === paths.signOut) return;
    return afterPaintWhenIdle(() => void ensureValidToken());
  }, [location.key, location.pathname, isPublic]);

  const tariffsTo = useTariffsMenuTarget();
  const entries = useMemo(() => menuEntries(t, tariffsTo), [t, tariffsTo]);
  const trail = findActiveTrail(entries, location.pathname);

  if (!isPublic && !token) {
    return <Navigate to={fox ? paths.signInFox : paths.signIn} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }

  const busy = navigation.state === 'loading' && (
    <Box
      pos="fixed"
      top={0}
      left={0}
      right={0}
      h={3}
      bg="brand.6"
      style={{ zIndex: 500 }}
      role="progressbar"
      aria-label={t('app.loading')}
    />
  );

  if (fox) {
    return (
      <Box component="main" id="main" p="xs" data-fox-mode>
        {busy}
        {/* The embedded screens have no header; the public ones still offer language and theme. */}
        {isPublic && (
          <Group justify="flex-end" gap="xs" mb="xs">
            <LanguageMenu onChange={chooseLanguage} />
            <ThemeMenu />
          </Group>
        )}
        <Outlet />
      </Box>
    );
  }

  if (isPublic) {
    return (
      <Box mih="100vh" bg="var(--mantine-color-default-hover)">
        {busy}
        <Group justify="space-between" px="md" py="sm">
          <Brand />
          <Group gap="xs">
            <LanguageMenu onChange={chooseLanguage} />
            <ThemeMenu />
          </Group>
        </Group>
        <Box component="main" id="main" px="md" pb="xl">
          <Outlet />
        </Box>
      </Box>
    );
  }

  return (
    <AppShell header={{ height: 60 }} padding="md">
      <a className="pw-skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      {busy}
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={drawerOpen}
              onClick={() => {
                setDrawerUsed(true);
                drawer.toggle();
              }}
              hiddenFrom="xs"
              size="sm"
              aria-label={drawerOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            />
            <Brand />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Box component="nav" aria-label={t('nav.mainMenu')} className="pw-header-nav" visibleFrom="xs">
              <NavMenu entries={entries} mode="dropdown" activeTrail={trail} />
            </Box>
            {/* The live connection's state, on every width (the drawer holds the rest below 576 px). */}
            <HubStatusIndicator />
            <NotificationBell />
            <Group gap="xs" wrap="nowrap" visibleFrom="xs">
              <LanguageMenu onChange={chooseLanguage} />
              <ThemeMenu />
            </Group>
          </Group>
        </Group>
      </AppShell.Header>
      {/* The drawer (and its modal machinery) loads when the burger is first used, not with every page. */}
      {drawerUsed && (
        <Suspense fallback={null}>
          <MobileMenu opened={drawerOpen} onClose={drawer.close} entries={entries} trail={trail} brand={<Brand />} />
        </Suspense>
      )}
      <AppShell.Main id="main">
        <Box maw={1200} mx="auto">
          <Outlet />
        </Box>
      </AppShell.Main>
      <ScrollToTop />
    </AppShell>
  );
}
