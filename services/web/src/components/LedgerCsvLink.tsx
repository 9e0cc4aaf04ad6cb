/** The whole ledger as the API's CSV export (the browser sends the session cookie). */
export function LedgerCsvLink() {
  return (
    <p>
      <a href="/api/v2/billing/ledger.csv" download>
        Download the whole ledger (CSV)
      </a>
    </p>
  );
}
