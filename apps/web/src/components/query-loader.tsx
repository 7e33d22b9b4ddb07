import { Alert, Anchor, Button, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '@/lib/api-client';

/** What the loader reads of a query (TanStack Query's result has it all). */
export interface LoaderQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch(): unknown;
}

/** "Does not exist" and the way back: an unknown id, another user's record. */
export interface NotFound {
  text: string;
  back: { to: string; text: string };
}

/** The plain "does not exist" note with its link back. */
export function NotFoundNote({ text, back }: NotFound) {
  return (
    <Stack align="flex-start">
      <Alert color="gray" variant="light" role="alert">
        {text}
      </Alert>
      <Anchor component={Link} to={back.to}>
        {back.text}
      </Anchor>
    </Stack>
  );
}

/**
 * A query's three states before its data: "does not exist" (`notFound`) for an id known to be wrong
 * (`invalid`) or answered 404, the `skeleton` while it loads, `errorText` with a retry when it failed;
 * then `children` with the data.
 */
export function QueryLoader<T>({
  query,
  invalid = false,
  notFound,
  skeleton,
  errorText,
  children,
}: {
  query: LoaderQuery<T>;
  invalid?: boolean;
  notFound?: NotFound;
  skeleton: ReactNode;
  errorText: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (notFound && (invalid || (query.isError && query.error instanceof ApiError && query.error.status === 404))) {
    return <NotFoundNote {...notFound} />;
  }
  if (query.isPending) return skeleton;
  if (query.isError || query.data === undefined) {
    return (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {errorText}
        </Alert>
        <Button onClick={() => void query.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  }
  return children(query.data);
}
