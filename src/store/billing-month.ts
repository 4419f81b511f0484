/**
 * BILL-4: a month is the UTC calendar month of occurred_at. The one SQL expression of it, for the
 * counters kept as scans get their outcome and for rebuilding them (derived.ts); `millis` is an
 * SQL expression of epoch milliseconds (a column or a parameter).
 */
export function billingMonthSql(millis: string): string {
  return `strftime('%Y-%m', ${millis} / 1000, 'unixepoch')`;
}
