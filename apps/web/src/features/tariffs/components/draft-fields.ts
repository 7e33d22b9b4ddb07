import type { TariffDraft } from '../tariff-draft';

/** What a part of the tariff form works with: the draft, its update, a field's error and its "was left" mark. */
export interface DraftFields {
  draft: TariffDraft;
  update(next: TariffDraft): void;
  /** The field's error text, once it was left or the form sent (the server's at once). */
  error(path: string): string | undefined;
  touch(path: string): void;
}
