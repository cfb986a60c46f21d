import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseStatementCsv } from "./csv";
import { MAX_STATEMENT_BYTES, readStatementFile } from "./formats";

const HEADER = "date,type,symbol,quantity,price,fee,currency,amount,asset_class,account";
const bytes = (text: string) => new TextEncoder().encode(text);
const errorsOf = (text: string) => {
  const r = parseStatementCsv(text);
  if (r.ok) throw new Error("expected errors");
  return r.errors;
};

describe("the statement template", () => {
  it("reads the example file into trades, cash flows and events", () => {
    const text = readFileSync(path.resolve(import.meta.dirname, "../../../public/statement-template.csv"), "utf8");
    const r = parseStatementCsv(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.lines).toBe(9);
    expect(r.rows.trades).toEqual([
      {
        externalId: "main:3",
        time: new Date("2024-01-03T00:00:00Z"),
        symbol: "AAPL",
        assetClass: "stock",
        side: "buy",
        quantity: 20,
        price: 185.5,
        fee: 1,
        currency: "USD",
      },
      expect.objectContaining({ symbol: "SPY", assetClass: "etf", side: "buy", quantity: 10, price: 470.25 }),
      expect.objectContaining({ symbol: "AAPL", side: "sell", quantity: 20, price: 179.7, externalId: "main:7" }),
    ]);
    expect(r.rows.cashFlows.map((c) => c.amount)).toEqual([10000, -500]);
    expect(r.rows.events).toEqual([
      expect.objectContaining({ kind: "income", symbol: "AAPL", amount: 4.8 }),
      expect.objectContaining({ kind: "fee", amount: 0.72 }),
      expect.objectContaining({ kind: "income", amount: 12.34 }),
      expect.objectContaining({ kind: "fee", amount: 5 }),
    ]);
  });

  it("reads a time with an offset, quoted cells, a currency and a BOM-less file with CRLF lines", () => {
    const r = parseStatementCsv(
      `date,type,symbol,quantity,price,currency\r\n2024-05-02T09:30:00+02:00,buy,"SAP",3,"170.5",eur\r\n`,
    );
    expect(r.ok && r.rows.trades[0]).toEqual(
      expect.objectContaining({
        time: new Date("2024-05-02T07:30:00Z"),
        symbol: "SAP",
        price: 170.5,
        currency: "EUR",
        fee: 0,
      }),
    );
  });

  it("names the line and the column of each bad row", () => {
    const rows = [
      "2024-01-02,buy,AAPL,10,abc,,USD,,,", // line 2
      "2024-01-03,buy,AAPL,,10,,USD,,,", // line 3
      "2024-02-30,deposit,,,,,USD,100,,", // line 4
      "2024-01-05,transfer,,,,,USD,100,,", // line 5
      "2024-01-06,deposit,,,,,US,100,,", // line 6
      "2024-01-07,withdrawal,,,,,USD,0,,", // line 7
      "2024-01-08,buy,AAPL,1,10,,USD,,bond,", // line 8
      "2024-01-09,buy,AAPL,1,10", // line 9: too few cells
      "2999-01-01,deposit,,,,,USD,100,,", // line 10
      "15/01/2024,deposit,,,,,USD,100,,", // line 11
    ];
    expect(errorsOf([HEADER, ...rows].join("\n"))).toEqual([
      "line 2: price is not a number",
      "line 3: quantity is empty",
      'line 4: date "2024-02-30" is not a day of the calendar',
      'line 5: type "transfer" is not one of buy, sell, deposit, withdrawal, dividend, interest, fee, withholding',
      'line 6: currency "US" is not a three-letter code such as USD',
      "line 7: amount must be more than 0",
      'line 8: asset_class "bond" is not one of stock, etf, crypto, option',
      "line 9: 5 cells where the header has 10",
      "line 10: date 2999-01-01 is in the future",
      'line 11: date "15/01/2024" is not a date like 2024-03-15 or 2024-03-15T14:30:00Z',
    ]);
  });

  it("counts lines as the file has them: blank lines and a quoted newline move the number on", () => {
    const text = `${HEADER}\n\n2024-01-02,deposit,,,,,USD,100,,"two\nlines"\n2024-01-03,buy,AAPL,1,x,,USD,,,\n`;
    expect(errorsOf(text)).toEqual(["line 5: price is not a number"]);
  });

  it("refuses formula-injection cells, saying why", () => {
    for (const [cell, shown] of [
      ["=HYPERLINK(1)", "="],
      ["+SUM(A1)", "+"],
      ["@cmd", "@"],
      ["\tAAPL", "a tab"],
      ["-1+1", "-"],
    ] as const) {
      const errors = errorsOf(`${HEADER}\n2024-01-02,buy,"${cell}",1,10,,USD,,,\n`);
      expect(errors).toEqual([
        `line 2: symbol starts with "${shown}", which a spreadsheet would run as a formula; remove it`,
      ]);
    }
    expect(errorsOf(`${HEADER}\n2024-01-02,deposit,,,,,USD,100,,=1+1\n`)[0]).toMatch(
      /^line 2: account starts with "="/,
    );
  });

  it("refuses a header without date or type, an unknown column, and an empty file", () => {
    expect(errorsOf("when,what\n2024-01-01,buy\n")).toEqual([
      'line 1: unknown column "when", "what" (the columns are date, type, symbol, quantity, price, fee, currency, amount, asset_class, account)',
      "line 1: the header lacks date and type",
    ]);
    expect(errorsOf("")).toEqual(["The file is empty: it needs a header line and at least one row."]);
    expect(errorsOf(`${HEADER}\n`)).toEqual(["The file has a header but no rows."]);
  });

  it("stops listing after twenty bad lines", () => {
    const bad = Array.from({ length: 40 }, (_, i) => `2024-01-02,buy,AAPL,1,x${i},,USD,,,`);
    const errors = errorsOf([HEADER, ...bad].join("\n"));
    expect(errors).toHaveLength(21);
    expect(errors[19]).toBe("line 21: price is not a number");
    expect(errors[20]).toBe("… and the file was read no further.");
  });

  it("refuses a broken quote with its line", () => {
    expect(errorsOf(`${HEADER}\n2024-01-02,deposit,,,,,USD,100,,"open\n`)[0]).toMatch(
      /^line 2: this is not a readable CSV file/,
    );
  });
});

describe("a statement file's checks", () => {
  const good = bytes(`${HEADER}\n2024-01-02,deposit,,,,,USD,100,,\n`);
  it("accepts a good file as the csv format, with or without a BOM", () => {
    const r = readStatementFile(good);
    expect(r.ok && r.format).toBe("csv");
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...good]);
    expect(readStatementFile(withBom).ok).toBe(true);
  });
  it("refuses a zip and a gzip by their magic bytes, whatever the name", () => {
    const zip = readStatementFile(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]));
    expect(zip).toMatchObject({ ok: false, status: 415, message: expect.stringMatching(/zip archive/) });
    expect(readStatementFile(new Uint8Array([0x1f, 0x8b, 8, 0]))).toMatchObject({ ok: false, status: 415 });
  });
  it("refuses text that is not UTF-8 (Latin-1's é) and binary data", () => {
    const latin1 = new Uint8Array([...bytes(`${HEADER}\n2024-01-02,deposit,,,,,USD,100,,Soci`), 0xe9, 0x0a]);
    expect(readStatementFile(latin1)).toMatchObject({
      ok: false,
      status: 415,
      message: expect.stringMatching(/not UTF-8/),
    });
    expect(readStatementFile(new Uint8Array([0x41, 0, 0x42]))).toMatchObject({ ok: false, status: 415 });
  });
  it("refuses a file over the limit without decoding it, and an empty one", () => {
    const big = new Uint8Array(MAX_STATEMENT_BYTES + 1);
    expect(readStatementFile(big)).toMatchObject({ ok: false, status: 413 });
    expect(readStatementFile(new Uint8Array())).toMatchObject({ ok: false, status: 400 });
  });
  it("reads an IBKR Flex XML file with the Flex Web Service's parser, and refuses a broken one in words", () => {
    const xml = readFileSync(new URL("../../../test/fixtures/ibkr/activity.xml", import.meta.url), "utf8");
    const r = readStatementFile(bytes(xml));
    if (!r.ok) throw new Error(r.errors.join("; "));
    expect(r.format).toBe("flex");
    expect(r.rows.trades.find((t) => t.symbol === "SAP")).toMatchObject({ currency: "EUR", quantity: 20, price: 200 });
    expect(r.lines).toBe(r.rows.trades.length + r.rows.cashFlows.length + r.rows.events.length);
    const broken = readStatementFile(bytes(`<?xml version="1.0"?>\n<FlexQueryResponse queryName="x"><FlexStatements>`));
    expect(broken).toMatchObject({ ok: false, status: 400, errors: [expect.stringMatching(/not valid XML/)] });
  });
  it("names the formats accepted for another kind of markup", () => {
    const r = readStatementFile(bytes(`<html><body>statement</body></html>`));
    expect(r).toEqual({
      ok: false,
      status: 415,
      message: "This kind of file is not read here. Accepted formats: IBKR Flex XML or CSV (Grader's template).",
      errors: [],
    });
  });
  it("refuses too many rows whole", () => {
    const row = "2024-01-02,deposit,,,,,USD,1,,";
    const text = [HEADER, ...Array.from({ length: 50_001 }, () => row)].join("\n");
    expect(readStatementFile(bytes(text))).toMatchObject({
      ok: false,
      status: 400,
      errors: ["The file has 50001 rows; at most 50000 are read."],
    });
  });
  it("answers a file with bad lines 400, listing them", () => {
    const r = readStatementFile(bytes(`${HEADER}\n2024-01-02,buy,AAPL,1,ten,,USD,,,\n`));
    expect(r).toMatchObject({ ok: false, status: 400, errors: ["line 2: price is not a number"] });
  });
});
