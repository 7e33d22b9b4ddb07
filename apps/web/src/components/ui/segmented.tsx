import { type HTMLAttributes, useId } from 'react';
import classes from './segmented.module.css';

export interface SegmentedProps<T extends string> extends Omit<HTMLAttributes<HTMLDivElement>, 'onChange' | 'defaultValue'> {
  value: T;
  onChange(value: NoInfer<T>): void;
  data: readonly { value: NoInfer<T>; label: string }[];
  'aria-label': string;
  size?: 'xs' | 'sm';
  /**
   * Below 576 px, the options in this many equal columns (rows of their own) instead of one row that wraps
   * where it runs out: four options then sit two by two, not three and one.
   */
  phoneColumns?: 2;
}

/**
 * A segmented choice (one of a few options), drawn as Mantine's SegmentedControl is but from native
 * radio inputs and CSS alone: arrow keys, Space and labels work as for any radio group. Mantine's
 * control measures its items on mount and on every resize to move a floating indicator (a forced layout
 * per control, ~70 ms over the ten of a device page); this one lays out once with the page.
 */
export function Segmented<T extends string>({ value, onChange, data, size = 'sm', phoneColumns, className, ...rest }: SegmentedProps<T>) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      data-size={size}
      data-phone-columns={phoneColumns}
      className={className ? `${classes.root} ${className}` : classes.root}
      {...rest}
    >
      {data.map((d) => (
        <label key={d.value} className={classes.item}>
          <input
            className={classes.input}
            type="radio"
            name={name}
            value={d.value}
            checked={d.value === value}
            onChange={() => onChange(d.value)}
          />
          <span className={classes.label}>{d.label}</span>
        </label>
      ))}
    </div>
  );
}
