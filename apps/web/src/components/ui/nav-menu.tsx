import { Box, Collapse, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import { type ComponentPropsWithoutRef, forwardRef, type ReactNode, useState } from 'react';
import { NavLink as RouterLink } from 'react-router';
import { deferredModule, useDeferredModule } from './deferred';
import classes from './nav-menu.module.css';

/** Spec section 9: dropdown hover timeout, stacking, accordion speed and the nesting cap. */
export const MENU_HOVER_TIMEOUT_MS = 200;
export const MENU_Z_INDEX = 105;
export const MENU_Z_INDEX_MOBILE = 110;
export const ACCORDION_DURATION_MS = 250;
export const MENU_MAX_DEPTH = 20;

export interface MenuEntry {
  key: string;
  label: string;
  icon?: ReactNode;
  /** A route; entries with children may have none. */
  to?: string;
  children?: MenuEntry[];
  /** Hidden entries are not shown (spec: a menu item is shown or hidden). */
  hidden?: boolean;
  /** Other route prefixes of the entry's section (a device page belongs to "Device readouts"). */
  match?: readonly string[];
}

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * Keys from the top entry down to the one whose route matches the path. The search stops at 20 levels
 * so a cyclic or runaway menu definition cannot hang the page.
 */
export function findActiveTrail(entries: MenuEntry[], pathname: string, maxDepth = MENU_MAX_DEPTH): string[] {
  const walk = (list: MenuEntry[], depth: number): string[] | null => {
    if (depth >= maxDepth) return null;
    for (const e of list) {
      if ((e.to && under(pathname, e.to)) || e.match?.some((m) => under(pathname, m))) return [e.key];
      if (e.children) {
        const sub = walk(e.children, depth + 1);
        if (sub) return [e.key, ...sub];
      }
    }
    return null;
  };
  return walk(entries, 0) ?? [];
}

function EntryLink({ entry, onNavigate, active }: { entry: MenuEntry; onNavigate?: () => void; active: boolean }) {
  return (
    <UnstyledButton
      component={RouterLink}
      to={entry.to ?? '#'}
      className={classes.link}
      onClick={onNavigate}
      title={entry.label}
      data-active={active || undefined}
    >
      {entry.icon}
      <span className={classes.label}>{entry.label}</span>
    </UnstyledButton>
  );
}

const dropdownModule = deferredModule(() => import('./nav-menu-dropdown'));

/**
 * A top entry with children: the trigger at once, the hover menu (Mantine's Menu and its positioning
 * library) loaded after the first paint; hovering or clicking the trigger before that opens it on arrival.
 */
function DeferredDropdown(props: { entry: MenuEntry; mobile: boolean; onNavigate?: () => void; activeTrail: string[] }) {
  const mod = useDeferredModule(dropdownModule);
  const [openOnArrival, setOpenOnArrival] = useState(false);
  if (mod) return <mod.Dropdown {...props} defaultOpened={openOnArrival} />;
  const want = () => {
    setOpenOnArrival(true);
    void dropdownModule.load();
  };
  return <DropdownTrigger entry={props.entry} active={props.activeTrail.includes(props.entry.key)} onPointerEnter={want} onClick={want} />;
}

/** The look of a dropdown's trigger, shared by the placeholder and the real menu. */
export const DropdownTrigger = forwardRef<
  HTMLButtonElement,
  { entry: MenuEntry; active: boolean } & Omit<ComponentPropsWithoutRef<'button'>, 'children'>
>(function DropdownTrigger({ entry, active, className, ...rest }, ref) {
  // Menu.Target hands its own props (and a class) to the trigger: they are kept, the link look too.
  return (
    <UnstyledButton
      ref={ref}
      aria-haspopup="menu"
      title={entry.label}
      data-active={active || undefined}
      {...rest}
      className={className ? `${classes.link} ${className}` : classes.link}
    >
      {entry.icon}
      <span className={classes.label}>{entry.label}</span>
      <IconChevronDown size={14} />
    </UnstyledButton>
  );
});

function AccordionEntry({
  entry,
  depth,
  onNavigate,
  activeTrail,
}: {
  entry: MenuEntry;
  depth: number;
  onNavigate?: () => void;
  activeTrail: string[];
}) {
  const active = activeTrail.includes(entry.key);
  const [opened, { toggle }] = useDisclosure(active);
  const id = `menu-${entry.key}`;
  return (
    <div>
      <UnstyledButton className={classes.link} onClick={toggle} aria-expanded={opened} aria-controls={id} data-active={active || undefined}>
        {entry.icon}
        <span style={{ flex: 1 }}>{entry.label}</span>
        <IconChevronDown
          size={14}
          style={{ transform: opened ? 'rotate(180deg)' : 'none', transition: `transform ${ACCORDION_DURATION_MS}ms` }}
        />
      </UnstyledButton>
      <Collapse in={opened} transitionDuration={ACCORDION_DURATION_MS} id={id}>
        <Box pl="md">
          <NavMenu entries={entry.children ?? []} mode="accordion" onNavigate={onNavigate} depth={depth + 1} activeTrail={activeTrail} />
        </Box>
      </Collapse>
    </div>
  );
}

export interface NavMenuProps {
  entries: MenuEntry[];
  /** Dropdowns on wide screens, an accordion in the mobile drawer. */
  mode: 'dropdown' | 'accordion';
  mobile?: boolean;
  onNavigate?: () => void;
  /** Current nesting level; deeper than 20 levels is not rendered. */
  depth?: number;
  activeTrail?: string[];
}

/** The app menu: entries with children open as a hover dropdown (200 ms) or a sliding accordion (250 ms). */
export function NavMenu({ entries, mode, mobile = false, onNavigate, depth = 0, activeTrail = [] }: NavMenuProps) {
  if (depth >= MENU_MAX_DEPTH) return null;
  const visible = entries.filter((e) => !e.hidden);
  return (
    <Box className={mode === 'dropdown' ? classes.row : classes.column}>
      {visible.map((e) => {
        if (!e.children?.length) return <EntryLink key={e.key} entry={e} onNavigate={onNavigate} active={activeTrail.includes(e.key)} />;
        return mode === 'dropdown' ? (
          <DeferredDropdown key={e.key} entry={e} mobile={mobile} onNavigate={onNavigate} activeTrail={activeTrail} />
        ) : (
          <AccordionEntry key={e.key} entry={e} depth={depth} onNavigate={onNavigate} activeTrail={activeTrail} />
        );
      })}
    </Box>
  );
}
