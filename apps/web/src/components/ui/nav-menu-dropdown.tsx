import { Box, Menu } from '@mantine/core';
import { NavLink as RouterLink } from 'react-router';
import { DropdownTrigger, MENU_HOVER_TIMEOUT_MS, MENU_Z_INDEX, MENU_Z_INDEX_MOBILE, type MenuEntry, NavMenu } from './nav-menu';

/** A top entry's hover menu (loaded after the first paint, see nav-menu.tsx). */
export function Dropdown({
  entry,
  mobile,
  onNavigate,
  activeTrail,
  defaultOpened = false,
}: {
  entry: MenuEntry;
  mobile: boolean;
  onNavigate?: () => void;
  activeTrail: string[];
  defaultOpened?: boolean;
}) {
  return (
    <Menu
      trigger="click-hover"
      openDelay={0}
      closeDelay={MENU_HOVER_TIMEOUT_MS}
      zIndex={mobile ? MENU_Z_INDEX_MOBILE : MENU_Z_INDEX}
      position="bottom-end"
      withinPortal
      loop
      defaultOpened={defaultOpened}
    >
      <Menu.Target>
        <DropdownTrigger entry={entry} active={activeTrail.includes(entry.key)} data-menu-ready />
      </Menu.Target>
      <Menu.Dropdown>
        {(entry.children ?? [])
          .filter((c) => !c.hidden)
          .map((c) =>
            c.to ? (
              <Menu.Item
                key={c.key}
                component={RouterLink}
                to={c.to}
                leftSection={c.icon}
                onClick={onNavigate}
                data-active={activeTrail.includes(c.key) || undefined}
              >
                {c.label}
              </Menu.Item>
            ) : (
              <Box key={c.key} px="sm" py={4}>
                {c.label}
                {c.children && (
                  <NavMenu entries={c.children} mode="accordion" onNavigate={onNavigate} depth={1} activeTrail={activeTrail} />
                )}
              </Box>
            ),
          )}
      </Menu.Dropdown>
    </Menu>
  );
}
