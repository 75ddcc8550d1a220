/**
 * Reading a `Retry-After` header: delta-seconds ("120") or an HTTP-date in any of the three forms a
 * recipient must accept (IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", the obsolete RFC 850
 * "Sunday, 06-Nov-94 08:49:37 GMT" and asctime "Sun Nov  6 08:49:37 1994"), as milliseconds to
 * wait. Spec: RFC 9110 §10.2.3 (Retry-After), §5.6.7 (Date/Time Formats).
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = MONTHS.join("|");
const DAY = "Mon|Tue|Wed|Thu|Fri|Sat|Sun";
const LONG_DAY = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";

/** IMF-fixdate: day, month, year, hour, minute, second. */
const IMF_FIXDATE = new RegExp(`^(?:${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
/** RFC 850: day, month, two-digit year, hour, minute, second. */
const RFC_850 = new RegExp(`^(?:${LONG_DAY}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
/** asctime: month, day (space-padded), hour, minute, second, year. */
const ASCTIME = new RegExp(`^(?:${DAY}) (${MONTH}) ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * Milliseconds an answer's `Retry-After` asks the client to wait, or undefined when the header is
 * absent or neither delta-seconds nor an HTTP-date. An HTTP-date is measured from the answer's own
 * `Date` header when it has a valid one (so a skewed local clock does not stretch or shorten the
 * wait), else from the local clock; a date already past asks for no wait (0).
 */
export function retryAfterMs(
  retryAfter: string | null,
  date: string | null,
  nowMs: number = Date.now(),
): number | undefined {
  if (retryAfter === null) return undefined;
  const value = retryAfter.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = httpDateMs(value, nowMs);
  if (at === undefined) return undefined;
  const sent = date === null ? undefined : httpDateMs(date.trim(), nowMs);
  return Math.max(0, at - (sent ?? nowMs));
}

/**
 * The time an HTTP-date names, in milliseconds since the epoch, or undefined when `value` is not
 * one (or names no real day). A two-digit RFC 850 year more than 50 years after `nowMs` is taken
 * as the most recent past year with those digits (RFC 9110 §5.6.7).
 */
export function httpDateMs(value: string, nowMs: number = Date.now()): number | undefined {
  let match = IMF_FIXDATE.exec(value);
  if (match !== null) {
    const [, day, month, year, hour, minute, second] = match as unknown as string[];
    return utc(Number(year), month as string, Number(day), Number(hour), Number(minute), Number(second));
  }
  match = RFC_850.exec(value);
  if (match !== null) {
    const [, day, month, shortYear, hour, minute, second] = match as unknown as string[];
    const thisYear = new Date(nowMs).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(shortYear);
    if (year > thisYear + 50) year -= 100;
    return utc(year, month as string, Number(day), Number(hour), Number(minute), Number(second));
  }
  match = ASCTIME.exec(value);
  if (match !== null) {
    const [, month, day, hour, minute, second, year] = match as unknown as string[];
    return utc(Number(year), month as string, Number(day), Number(hour), Number(minute), Number(second));
  }
  return undefined;
}

/** Milliseconds since the epoch of a UTC date and time, or undefined when they name no real moment. */
function utc(
  year: number,
  monthName: string,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  const month = MONTHS.indexOf(monthName);
  // 60 seconds is a leap second, which the time scale of `Date` counts as the next minute's first.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  // Date.UTC rolls an impossible day (31 Feb) into the next month: such a date is refused.
  if (day < 1 || new Date(Date.UTC(year, month, day)).getUTCDate() !== day) return undefined;
  return Date.UTC(year, month, day, hour, minute, second);
}
