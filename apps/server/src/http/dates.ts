const pad = (n: number) => String(n).padStart(2, '0');

/** Server dates are UTC `YYYY-MM-DD HH:mm:ss` (spec section 1): every answer's dates are written by this. */
export function serverDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
