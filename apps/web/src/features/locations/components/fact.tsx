import { Text } from '@mantine/core';

/** A small labelled value of the location view ("—" when it is empty). */
export function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value || '—'}</Text>
    </div>
  );
}
