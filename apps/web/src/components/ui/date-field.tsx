import '@mantine/dates/styles.css';
import 'dayjs/locale/pl';
import 'dayjs/locale/tr';
import { DatePickerInput, type DatePickerInputProps, type DatePickerType } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useTranslation } from 'react-i18next';

dayjs.extend(localizedFormat);

/**
 * A calendar date field in the user's language and its date format ("27 listopada 2026", "27 Kasım 2026",
 * "November 27, 2026"), with a calendar to pick from. Values are `YYYY-MM-DD` strings, as the API takes
 * them. A native `<input type="date">` formats by the browser's locale, not the app's: the Polish UI
 * showed 11/27/2026.
 */
export function DateField<T extends DatePickerType = 'default'>(props: DatePickerInputProps<T>) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <DatePickerInput<T>
      locale={locale}
      valueFormat="LL"
      firstDayOfWeek={locale === 'en' ? 0 : 1}
      leftSection={<IconCalendar size={16} aria-hidden />}
      ariaLabels={{
        previousMonth: t('ux.calendar.previousMonth'),
        nextMonth: t('ux.calendar.nextMonth'),
        previousYear: t('ux.calendar.previousYear'),
        nextYear: t('ux.calendar.nextYear'),
        previousDecade: t('ux.calendar.previousDecade'),
        nextDecade: t('ux.calendar.nextDecade'),
        monthLevelControl: t('ux.calendar.chooseMonth'),
        yearLevelControl: t('ux.calendar.chooseYear'),
      }}
      {...props}
    />
  );
}
