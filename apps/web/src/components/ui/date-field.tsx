import '@mantine/dates/styles.css';
import 'dayjs/locale/pl';
import 'dayjs/locale/tr';
import { DatePickerInput, type DatePickerInputProps, type DatePickerType } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

dayjs.extend(localizedFormat);

/**
 * Widths that hold the longest date of each language at the field's size ("28 października 2026" with the
 * calendar icon), for fields in a row of filters; in rem, so they follow the user's font size.
 */
export const DATE_FIELD_WIDTH = { xs: '11rem', sm: '12.75rem' } as const;

export type DateFieldProps<T extends DatePickerType> = Omit<DatePickerInputProps<T>, 'aria-label'> & {
  /** The field's name for assistive technology when it has no visible label ("Day: 27 November 2026"). */
  accessibleLabel?: string;
};

/**
 * A calendar date field in the user's language and its date format ("27 listopada 2026", "27 Kasım 2026",
 * "November 27, 2026"), with a calendar to pick from. Values are `YYYY-MM-DD` strings, as the API takes
 * them. A native `<input type="date">` formats by the browser's locale, not the app's: the Polish UI
 * showed 11/27/2026.
 */
export function DateField<T extends DatePickerType = 'default'>({ accessibleLabel, popoverProps, ...props }: DateFieldProps<T>) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  // The calendar (a dialog) is named by its field: Mantine names it by the popover's target id, which
  // the field's own id replaces, so both are given the same base.
  const base = useId();
  const fieldId = `${base}-target`;
  const labelId = `${base}-label`;
  return (
    <>
      {accessibleLabel && (
        <span id={labelId} hidden>
          {accessibleLabel}
        </span>
      )}
      <DatePickerInput<T>
        id={fieldId}
        // The shown dates stay part of the name (axe: label-content-name-mismatch).
        aria-labelledby={accessibleLabel ? `${labelId} ${fieldId}` : undefined}
        locale={locale}
        valueFormat="LL"
        firstDayOfWeek={locale === 'en' ? 0 : 1}
        // Days of other months and weekends in Mantine's faint and red texts are below 4.5:1 (axe).
        hideOutsideDates
        weekendDays={[]}
        leftSection={<IconCalendar size={16} aria-hidden />}
        ariaLabels={{
          previousMonth: t('ux.calendar.previousMonth'),
          nextMonth: t('ux.calendar.nextMonth'),
          previousYear: t('ux.calendar.previousYear'),
          nextYear: t('ux.calendar.nextYear'),
          previousDecade: t('ux.calendar.previousDecade'),
          nextDecade: t('ux.calendar.nextDecade'),
        }}
        popoverProps={{ ...popoverProps, id: base }}
        {...props}
      />
    </>
  );
}
