import { Form, Link, useLocation } from "@remix-run/react";
import type { Analytics, BreakdownRow, DayCell, TripRow } from "~/analytics";
import { JOURNAL_SORTS, PUBLIC_JOURNAL_SORTS, type JournalQuery, type JournalSort } from "~/analytics/journal";
import type { GlossaryKey } from "~/content/glossary";
import { createContext, useContext } from "react";
import { formatMoney, sideLabel } from "~/lib/format-number";
import { useLocale } from "~/lib/locale-context";
import { cardPercent, METRICS } from "~/lib/metrics";
import { pageCount } from "~/lib/paging";
import { Pager } from "./Pager";
import { Term } from "./Term";

type Journal = { rows: TripRow[]; total: number; query: JournalQuery; errors: Record<string, string> };

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
// Percentages as every figure of the report reads them (cardPercent: "+12.3%", "−4.5%").
const pct = (v: number | null | undefined, digits = 1) => cardPercent(v, false, digits);
const signed = (v: number | null | undefined, digits = 1) => cardPercent(v, true, digits);
// Amounts are in the grade's base currency, set once by StatsAnalytics for every table below it.
const BaseCurrency = createContext("USD");
function useMoney() {
  const currency = useContext(BaseCurrency);
  const locale = useLocale();
  return (v: number | null | undefined) => (v === null || v === undefined ? "—" : formatMoney(v, currency, locale));
}
/** Green, red or neither, as the figure reads: a percentage shown as 0.0% (to `digits`) is neither. */
const tone = (v: number | null | undefined, digits?: number) =>
  v === null || v === undefined || v === 0 || (digits !== undefined && Math.abs(v) < 0.5 * 10 ** -(digits + 2))
    ? undefined
    : v > 0
      ? "pos"
      : "neg";
const day = (iso: string) => iso.slice(0, 10);
const holding = (days: number) =>
  days < 1 / 24
    ? `${Math.max(1, Math.round(days * 1440))} min`
    : days < 1
      ? `${(days * 24).toFixed(1)} h`
      : `${days.toFixed(1)} d`;

/**
 * The Stats tab's analytics and journal, below the grade report. `amounts`: money figures may be
 * shown, in `currency` (the grade's base).
 */
export function StatsAnalytics({
  analytics: a,
  journal,
  amounts,
  own,
  currency = "USD",
}: {
  analytics: Analytics;
  journal: Journal;
  amounts: boolean;
  own: boolean;
  currency?: string;
}) {
  const locale = useLocale();
  const usd = (v: number | null | undefined) =>
    v === null || v === undefined ? "—" : formatMoney(v, currency, locale);
  return (
    <BaseCurrency.Provider value={currency}>
      <div className="analytics">
        {a.pricedThrough ? (
          <p className="muted small" data-testid="priced-through">
            Open positions are valued at the last prices from your accounts, on {a.pricedThrough}; the months and days
            after it show no return until newer prices arrive.
          </p>
        ) : null}
        <MonthlyReturns years={a.monthly} />
        <DailyCalendar days={a.calendar} from={a.calendarFrom} to={a.calendarTo} amounts={amounts} />
        <section aria-labelledby="breakdowns-title">
          <h2 id="breakdowns-title">Where the results come from</h2>
          <p className="muted small">
            {a.trips} completed <Term k="trips">round trips</Term>: {a.wins} won, {a.losses} lost
            {a.trips - a.wins - a.losses ? `, ${a.trips - a.wins - a.losses} break-even` : ""}
            {amounts && a.totalPnl !== null ? (
              <>
                , <span className="nowrap">{usd(a.totalPnl)}</span> in all
              </>
            ) : (
              ""
            )}
            .{" "}
            {a.hoursKnown ? (
              <>
                Weekday and hour are those of the opening trade, in {a.timeZone.replaceAll("_", " ")}
                {own ? (
                  <>
                    {" "}
                    (<Link to="/user/settings">change</Link>)
                  </>
                ) : null}
                .
              </>
            ) : (
              "The weekday is that of the opening trade; the broker gives dates without times, so there is no hour of day."
            )}
            {a.sharesMeaningful
              ? ""
              : " The net result is too near zero to share out, so the tables show no P&L share."}
          </p>
          <div className="breakdowns">
            <Breakdown
              id="by-symbol"
              title="By symbol"
              rows={a.bySymbol.slice(0, 15)}
              amounts={amounts}
              shares={a.sharesMeaningful}
              note={a.bySymbol.length > 15 ? `The 15 most traded of ${a.bySymbol.length} symbols.` : undefined}
            />
            <Breakdown
              id="by-class"
              title="By asset class"
              rows={a.byAssetClass}
              amounts={amounts}
              shares={a.sharesMeaningful}
            />
            <Breakdown
              id="by-side"
              title="Long and short"
              rows={a.bySide}
              amounts={amounts}
              shares={a.sharesMeaningful}
            />
            <Breakdown
              id="by-holding"
              title="By holding time"
              rows={a.byHolding}
              amounts={amounts}
              shares={a.sharesMeaningful}
            />
            <Breakdown
              id="by-weekday"
              title="By weekday"
              rows={a.byWeekday}
              amounts={amounts}
              shares={a.sharesMeaningful}
            />
            {a.hoursKnown ? (
              <Breakdown
                id="by-hour"
                title="By hour of day"
                rows={a.byHour.filter((r) => r.trips > 0)}
                amounts={amounts}
                shares={a.sharesMeaningful}
              />
            ) : null}
          </div>
        </section>
        <Distribution analytics={a} amounts={amounts} />
        <TradeJournal journal={journal} amounts={amounts} own={own} />
      </div>
    </BaseCurrency.Provider>
  );
}

function MonthlyReturns({ years }: { years: Analytics["monthly"] }) {
  if (years.length === 0) return null;
  return (
    <section aria-labelledby="monthly-title">
      <h2 id="monthly-title">
        <Term k="monthlyReturn">Monthly returns</Term>
      </h2>
      <div className="scroll-x" tabIndex={0} role="region" aria-labelledby="monthly-title">
        <table className="table monthly">
          <caption className="visually-hidden">Time-weighted return of each month and year</caption>
          <thead>
            <tr>
              <th scope="col">Year</th>
              {MONTHS.map((m) => (
                <th scope="col" key={m} className="num">
                  {m}
                </th>
              ))}
              <th scope="col" className="num">
                Year
              </th>
            </tr>
          </thead>
          <tbody>
            {years.map((y) => (
              <tr key={y.year}>
                <th scope="row">{y.year}</th>
                {y.months.map((r, i) => (
                  <td key={i} className={`num ${tone(r, 1) ?? ""}`}>
                    {r === null ? "" : signed(r)}
                  </td>
                ))}
                <td className={`num total ${tone(y.total, 1) ?? ""}`}>{signed(y.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Colour step of a day's return: 0 (flat) to ±3. */
function heat(r: number | null): string {
  if (r === null || r === 0) return "h0";
  const a = Math.abs(r);
  const step = a < 0.005 ? 1 : a < 0.02 ? 2 : 3;
  return `${r > 0 ? "p" : "n"}${step}`;
}

/** The months from `from`'s to `to`'s ("YYYY-MM"). */
function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const end = to.slice(0, 7);
  for (;;) {
    const ym = `${y}-${String(m).padStart(2, "0")}`;
    if (ym > end) break;
    out.push(ym);
    if (++m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

/**
 * The last twelve months up to today as calendars, one cell per day, coloured by the day's return:
 * days outside the window (before it, or still to come) are left blank.
 */
function DailyCalendar({ days, from, to, amounts }: { days: DayCell[]; from: string; to: string; amounts: boolean }) {
  const usd = useMoney();
  if (days.length === 0) return null;
  const months = new Map<string, DayCell[]>(monthsBetween(from, to).map((ym) => [ym, []]));
  for (const d of days) months.get(d.date.slice(0, 7))?.push(d);
  const shown = [...months.entries()];
  return (
    <section aria-labelledby="calendar-title">
      <h2 id="calendar-title">
        <Term k="dailyPnl">Daily P&amp;L</Term> calendar
      </h2>
      <p className="muted small">
        The last 12 months, to {to}; green days gained, red days lost (deeper colour: larger move). Hover or focus a day
        for its figures.
      </p>
      <div className="calendars">
        {shown.map(([ym, list]) => {
          const first = new Date(`${ym}-01T00:00:00Z`);
          const lead = (first.getUTCDay() + 6) % 7; // Monday first
          const byDay = new Map(list.map((d) => [Number(d.date.slice(8, 10)), d]));
          const daysIn = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
          const cells: (number | null)[] = [
            ...Array<null>(lead).fill(null),
            ...Array.from({ length: daysIn }, (_, i) => i + 1),
          ];
          const weeks: (number | null)[][] = [];
          for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
          const label = `${MONTHS[first.getUTCMonth()]} ${first.getUTCFullYear()}`;
          return (
            <table key={ym} className="calendar">
              <caption>{label}</caption>
              <thead>
                <tr>
                  {["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"].map((d) => (
                    <th key={d} scope="col">
                      <abbr title={d}>{d[0]}</abbr>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {weeks.map((w, i) => (
                  <tr key={i}>
                    {w.map((n, j) => {
                      const d = n === null ? undefined : byDay.get(n);
                      const date = n === null ? "" : `${ym}-${String(n).padStart(2, "0")}`;
                      if (n === null || date < from || date > to) return <td key={j} />;
                      if (!d)
                        return (
                          <td key={j} className="off">
                            {n}
                          </td>
                        );
                      if (d.return === null)
                        return (
                          <td key={j} className="off" title={`${d.date}: no return`}>
                            {n}
                          </td>
                        );
                      const detail = `${d.date}: ${signed(d.return, 2)}${amounts && d.pnl !== null ? `, ${usd(d.pnl)}` : ""}`;
                      return (
                        <td key={j} className={heat(d.return)} title={detail}>
                          <span aria-hidden="true">{n}</span>
                          <span className="visually-hidden">{detail}</span>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          );
        })}
      </div>
    </section>
  );
}

function Breakdown({
  id,
  title,
  rows,
  amounts,
  shares,
  note,
}: {
  id: string;
  title: string;
  rows: BreakdownRow[];
  amounts: boolean;
  /** The net result is far enough from zero for a P&L share column. */
  shares: boolean;
  note?: string;
}) {
  const usd = useMoney();
  const head = (k: GlossaryKey, label?: string) => (
    <th scope="col" className="num">
      <Term k={k}>{label}</Term>
    </th>
  );
  return (
    <div className="card breakdown">
      <h3 id={id}>{title}</h3>
      {rows.length === 0 ? (
        <p className="muted small">No round trips.</p>
      ) : (
        <div className="scroll-x" tabIndex={0} role="region" aria-labelledby={id}>
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">{title.replace(/^By /, "").replace(/^./, (c) => c.toUpperCase())}</th>
                {head("trips", METRICS.roundTrips.short)}
                {head("winRate")}
                {shares ? head("pnlShare", "P&L share") : null}
                {amounts ? head("expectancy") : head("avgReturn", "Avg return")}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} className={r.trips === 0 ? "muted" : undefined}>
                  <th scope="row">{r.label}</th>
                  <td className="num">{r.trips}</td>
                  <td className="num">{pct(r.winRate, 0)}</td>
                  {shares ? <td className={`num ${tone(r.pnlShare, 0) ?? ""}`}>{signed(r.pnlShare, 0)}</td> : null}
                  {amounts ? (
                    <td className={`num ${tone(r.expectancy) ?? ""}`}>{usd(r.expectancy)}</td>
                  ) : (
                    <td className={`num ${tone(r.avgReturn, 2) ?? ""}`}>{signed(r.avgReturn, 2)}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {note ? <p className="muted small">{note}</p> : null}
    </div>
  );
}

function Distribution({ analytics: a, amounts }: { analytics: Analytics; amounts: boolean }) {
  const most = Math.max(1, ...a.histogram.map((b) => b.count));
  const s = a.streaks;
  return (
    <section aria-labelledby="distribution-title">
      <h2 id="distribution-title">
        <Term k="returnDistribution">Distribution of round-trip returns</Term>
      </h2>
      <div className="breakdowns">
        <div className="card">
          <table className="table compact histogram">
            <caption className="visually-hidden">Number of round trips in each band of return</caption>
            <thead>
              <tr>
                <th scope="col">Return</th>
                <th scope="col" className="num">
                  Trips
                </th>
                <th scope="col">
                  <span className="visually-hidden">Share</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {a.histogram.map((b) => (
                <tr key={b.label}>
                  <th scope="row">{b.label}</th>
                  <td className="num">{b.count}</td>
                  <td className="bar-cell" aria-hidden="true">
                    <span
                      className={`bar ${(b.to ?? 1) <= 0 ? "neg" : "pos"}`}
                      style={{ width: `${(b.count / most) * 100}%` }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="card">
          <h3>
            <Term k="streak">Streaks</Term>
          </h3>
          <dl className="figures small-figures">
            <div>
              <dt>Longest winning streak</dt>
              <dd>{s.longestWin}</dd>
            </div>
            <div>
              <dt>Longest losing streak</dt>
              <dd>{s.longestLoss}</dd>
            </div>
            <div>
              <dt>Now</dt>
              <dd>
                {s.current.kind === null
                  ? "—"
                  : `${s.current.length} ${s.current.kind === "win" ? "win" : s.current.kind === "loss" ? "loss" : "break-even"}${s.current.length === 1 ? "" : s.current.kind === "loss" ? "es" : "s"}`}
              </dd>
            </div>
          </dl>
          <TripList title="Best round trips" trips={a.best} amounts={amounts} />
          <TripList title="Worst round trips" trips={a.worst} amounts={amounts} />
        </div>
      </div>
    </section>
  );
}

function TripList({ title, trips, amounts }: { title: string; trips: TripRow[]; amounts: boolean }) {
  const usd = useMoney();
  return (
    <>
      <h3>{title}</h3>
      {trips.length === 0 ? (
        <p className="muted small">None yet.</p>
      ) : (
        <ol className="trip-list">
          {trips.map((t) => (
            <li key={t.n}>
              <strong>{t.symbol}</strong> {sideLabel(t.side)}, closed {day(t.closeTime)}:{" "}
              <span className={tone(t.return, 1)}>{signed(t.return, 1)}</span>
              {amounts && t.pnl !== null ? (
                <span className={`nowrap ${tone(t.pnl) ?? ""}`}> ({usd(t.pnl)})</span>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

const SORT_LABELS: Record<JournalSort, string> = {
  close_time: "Closed",
  open_time: "Opened",
  symbol: "Symbol",
  side: "Side",
  holding: "Holding",
  return: "Return",
  pnl: "P&L",
};

function TradeJournal({ journal, amounts, own }: { journal: Journal; amounts: boolean; own: boolean }) {
  const usd = useMoney();
  const location = useLocation();
  const q = journal.query;
  const e = journal.errors;
  const sorts = amounts ? JOURNAL_SORTS : PUBLIC_JOURNAL_SORTS;
  // Links keep the filters; the journal's anchor brings the reader back to it.
  const href = (over: Partial<Record<keyof JournalQuery, string | number>>) => {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(over)) p.set(k, String(v));
    return `${location.pathname}?${p.toString()}#journal`;
  };
  const sortHeader = (s: JournalSort, num = false) => {
    const active = q.sort_by === s;
    const next = active && q.order === "desc" ? "asc" : "desc";
    return (
      <th
        scope="col"
        className={num ? "num" : undefined}
        aria-sort={active ? (q.order === "asc" ? "ascending" : "descending") : undefined}
      >
        <Link to={href({ sort_by: s, order: next, page: 1 })} preventScrollReset>
          {SORT_LABELS[s]}
          {active ? (q.order === "asc" ? " ▲" : " ▼") : ""}
        </Link>
      </th>
    );
  };
  const pages = pageCount(journal.total, q.page_size);
  const csvQuery = new URLSearchParams(
    Object.entries({
      symbol: q.symbol,
      side: q.side,
      outcome: q.outcome,
      from: q.from,
      to: q.to,
      sort_by: q.sort_by,
      order: q.order,
    }).filter(([, v]) => v) as [string, string][],
  ).toString();
  const errorText = Object.entries(e)
    .map(([k, v]) => `${k.replace("_", " ")}: ${v}`)
    .join("; ");
  return (
    <section aria-labelledby="journal-title" id="journal">
      <h2 id="journal-title">Trade journal</h2>
      <Form method="get" className="journal-filters card" preventScrollReset>
        {errorText ? (
          <p className="field-error" role="alert">
            Some filters were not understood and were ignored ({errorText}).
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="j-symbol">Symbol</label>
          <input id="j-symbol" name="symbol" defaultValue={q.symbol ?? ""} maxLength={40} autoCapitalize="characters" />
        </div>
        <div className="field">
          <label htmlFor="j-side">Side</label>
          <select id="j-side" name="side" defaultValue={q.side ?? ""}>
            <option value="">Long and short</option>
            <option value="long">Long</option>
            <option value="short">Short</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="j-outcome">Result</label>
          <select id="j-outcome" name="outcome" defaultValue={q.outcome ?? ""}>
            <option value="">Winners and losers</option>
            <option value="win">Winners</option>
            <option value="loss">Losers</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="j-from">Closed from</label>
          <input id="j-from" name="from" type="date" defaultValue={q.from ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="j-to">Closed to</label>
          <input id="j-to" name="to" type="date" defaultValue={q.to ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="j-sort">Sort by</label>
          <select id="j-sort" name="sort_by" defaultValue={q.sort_by}>
            {sorts.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="j-order">Order</label>
          <select id="j-order" name="order" defaultValue={q.order}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </div>
        <div className="journal-actions">
          <button type="submit" className="btn btn-primary">
            Show
          </button>
          <Link to={`${location.pathname}#journal`} className="btn btn-ghost">
            Clear
          </Link>
        </div>
      </Form>
      <p className="muted small" role="status">
        {journal.total} round trip{journal.total === 1 ? "" : "s"} match.
        {own ? (
          <>
            {" "}
            Download:{" "}
            <a href={`/api/portal/round_trips.csv${csvQuery ? `?${csvQuery}` : ""}`} download>
              these round trips (CSV)
            </a>{" "}
            ·{" "}
            <a href="/api/portal/trades.csv" download>
              all trades (CSV)
            </a>{" "}
            ·{" "}
            <a href="/api/portal/ledger" download="ledger.json">
              the graded ledger (JSON)
            </a>
          </>
        ) : null}
      </p>
      {journal.rows.length ? (
        <div className="scroll-x" tabIndex={0} role="region" aria-labelledby="journal-title">
          <table className="table compact journal">
            <thead>
              <tr>
                {/* Return and P&L first after the symbol: what a phone shows without scrolling. */}
                {sortHeader("close_time")}
                {sortHeader("symbol")}
                {sortHeader("return", true)}
                {amounts ? sortHeader("pnl", true) : null}
                {sortHeader("side")}
                {sortHeader("holding", true)}
                {sortHeader("open_time")}
              </tr>
            </thead>
            <tbody>
              {journal.rows.map((t) => (
                <tr key={t.n}>
                  <td>{day(t.closeTime)}</td>
                  <td>
                    <strong>{t.symbol}</strong>
                  </td>
                  <td className={`num ${tone(t.return, 2) ?? ""}`}>{signed(t.return, 2)}</td>
                  {amounts ? <td className={`num ${tone(t.pnl) ?? ""}`}>{usd(t.pnl)}</td> : null}
                  <td>{sideLabel(t.side)}</td>
                  <td className="num">{holding(t.holdingDays)}</td>
                  <td>{day(t.openTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No round trip matches these filters.</p>
      )}
      {pages > 1 ? (
        <Pager
          label="Journal pages"
          page={Math.min(q.page, pages)}
          pages={pages}
          total={journal.total}
          href={(p) => href({ page: p })}
        />
      ) : null}
    </section>
  );
}

/** A grade made before ledgers were kept has no round trips to analyse. */
export function OlderGrade() {
  return (
    <p className="muted">
      The detailed analytics and the trade journal come with grades made from now on: ask for a new evaluation to see
      them.
    </p>
  );
}
