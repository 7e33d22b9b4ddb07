import { Drawer, type DrawerProps } from '@mantine/core';
import { useDebouncedCallback, useWindowEvent } from '@mantine/hooks';
import { MOBILE_BREAKPOINT_PX } from '@phasewatch/shared';

/** Resize events settle for this long before the drawer reacts (spec section 2). */
export const DRAWER_RESIZE_DEBOUNCE_MS = 200;

/** Calls `onResize` with the window width once resizing has paused for 200 ms. */
export function useDebouncedResize(onResize: (width: number) => void, delay = DRAWER_RESIZE_DEBOUNCE_MS): void {
  const handler = useDebouncedCallback(() => onResize(window.innerWidth), delay);
  useWindowEvent('resize', handler);
}

export interface AppDrawerProps extends Omit<DrawerProps, 'opened' | 'onClose'> {
  opened: boolean;
  onClose(): void;
  /** The drawer closes itself when the window grows to this width (the mobile breakpoint by default). */
  closeAboveWidth?: number;
}

/** The side drawer of the mobile layout: shown or hidden; hides itself when the window becomes wide. */
export function AppDrawer({ opened, onClose, closeAboveWidth = MOBILE_BREAKPOINT_PX, children, ...rest }: AppDrawerProps) {
  useDebouncedResize((width) => {
    if (opened && width >= closeAboveWidth) onClose();
  });
  return (
    <Drawer opened={opened} onClose={onClose} size={280} padding="md" {...rest}>
      {children}
    </Drawer>
  );
}
