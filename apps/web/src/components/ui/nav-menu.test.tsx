import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderUi } from '@/test/render';
import { findActiveTrail, type MenuEntry, NavMenu } from './nav-menu';

const entries: MenuEntry[] = [
  { key: 'analytics', label: 'Analytics', to: '/analytics' },
  { key: 'hidden', label: 'Secret', to: '/secret', hidden: true },
  {
    key: 'settings',
    label: 'Settings',
    children: [
      { key: 'profile', label: 'Profile', to: '/user/profile' },
      { key: 'out', label: 'Sign out', to: '/sign-out' },
    ],
  },
];

function chain(depth: number): MenuEntry[] {
  let list: MenuEntry[] = [{ key: 'leaf', label: 'Leaf', to: '/leaf' }];
  for (let i = depth - 1; i >= 0; i--) list = [{ key: `n${i}`, label: `Level ${i}`, children: list }];
  return list;
}

describe('findActiveTrail', () => {
  it('finds the trail of the entry matching the path, nested routes included', () => {
    expect(findActiveTrail(entries, '/user/profile')).toEqual(['settings', 'profile']);
    expect(findActiveTrail(entries, '/analytics/x')).toEqual(['analytics']);
    expect(findActiveTrail(entries, '/nowhere')).toEqual([]);
  });

  it('marks the section of routes listed in match (a device page under the dashboard entry)', () => {
    const withMatch: MenuEntry[] = [
      { key: 'readouts', label: 'Readouts', to: '/dashboard', match: ['/device-details', '/device'] },
      ...entries,
    ];
    expect(findActiveTrail(withMatch, '/device-details/4')).toEqual(['readouts']);
    expect(findActiveTrail(withMatch, '/device/overview/4')).toEqual(['readouts']);
    expect(findActiveTrail(withMatch, '/devices-other')).toEqual([]);
  });

  it('gives up beyond 20 levels', () => {
    expect(findActiveTrail(chain(19), '/leaf')).toHaveLength(20);
    expect(findActiveTrail(chain(20), '/leaf')).toEqual([]);
  });
});

describe('NavMenu marks the current section', () => {
  it('flags the entry and the dropdown holding the current page', () => {
    renderUi(
      <MemoryRouter initialEntries={['/user/profile/x']}>
        <NavMenu entries={entries} mode="dropdown" activeTrail={['settings', 'profile']} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('button', { name: 'Settings' })).toHaveAttribute('data-active', 'true');
    expect(screen.getByRole('link', { name: 'Analytics' })).not.toHaveAttribute('data-active');
  });
});

describe('NavMenu as dropdown', () => {
  it('opens the menu on arrival when its trigger is pressed before the menu has loaded', async () => {
    const user = userEvent.setup();
    renderUi(
      <MemoryRouter>
        <NavMenu entries={entries} mode="dropdown" />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('menuitem', { name: 'Profile' }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('hides hidden entries, opens on hover and closes 200 ms after leaving', async () => {
    const user = userEvent.setup();
    renderUi(
      <MemoryRouter>
        <NavMenu entries={entries} mode="dropdown" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Analytics' })).toHaveAttribute('href', '/analytics');
    expect(screen.queryByText('Secret')).not.toBeInTheDocument();
    // The hover menu arrives just after the first paint (a deferred chunk); the trigger is there at once.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Settings' })).toHaveAttribute('data-menu-ready'));
    const trigger = screen.getByRole('button', { name: 'Settings' });
    await user.hover(trigger);
    const item = await screen.findByRole('menuitem', { name: 'Profile' });
    expect(item.closest('[style*="z-index"]')?.getAttribute('style')).toContain('105');
    await user.unhover(trigger);
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toBeInTheDocument();
    const left = Date.now();
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: 'Profile' })).not.toBeInTheDocument());
    expect(Date.now() - left).toBeGreaterThanOrEqual(150);
  });

  it('uses z-index 110 on mobile', async () => {
    const user = userEvent.setup();
    renderUi(
      <MemoryRouter>
        <NavMenu entries={entries} mode="dropdown" mobile />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const item = await screen.findByRole('menuitem', { name: 'Profile' });
    expect(item.closest('[style*="z-index"]')?.getAttribute('style')).toContain('110');
  });
});

describe('NavMenu as accordion', () => {
  it('expands and collapses children with the keyboard', async () => {
    const user = userEvent.setup();
    renderUi(
      <MemoryRouter>
        <NavMenu entries={entries} mode="accordion" />
      </MemoryRouter>,
    );
    const toggle = screen.getByRole('button', { name: 'Settings' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByRole('link', { name: 'Profile' })).toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens the branch of the active route and renders at most 20 levels', () => {
    renderUi(
      <MemoryRouter>
        <NavMenu entries={chain(25)} mode="accordion" activeTrail={['n0']} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('button', { name: 'Level 0' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Level 19')).toBeInTheDocument();
    expect(screen.queryByText('Level 20')).not.toBeInTheDocument();
  });
});
