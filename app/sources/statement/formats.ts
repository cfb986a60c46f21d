// The registry of statement file formats (docs/ARCHITECTURE.md, "A statement format"): each entry
// says how it recognises a file by its content and parses its text into imported rows. The checks
// every file passes first (size, archive, encoding) are here too, once, before any format looks.
import { parseFlexStatement } from "../ibkr/flex";
import { parseStatementCsv, type StatementParse } from "./csv";

export type StatementFormat = {
  id: string;
  /** How pages name it: "CSV (Grader's template)". */
  name: string;
  /** Whether this file's text is this format (the first entry that says yes parses it). */
  detect(text: string): boolean;
  parse(text: string): StatementParse;
};

/** A file larger than this is refused before it is read whole (the form, the API and the body limit). */
export const MAX_STATEMENT_BYTES = 5 * 1024 * 1024;

/** An IBKR Flex XML statement, read by the same parser as the Flex Web Service's (DECISIONS 193). */
function parseFlexFile(text: string): StatementParse {
  const read = parseFlexStatement(text);
  if (!read.ok) return { ok: false, errors: read.problems };
  const { trades, cashFlows, events, marks } = read;
  return {
    ok: true,
    rows: { trades, cashFlows, events, marks },
    lines: trades.length + cashFlows.length + events.length,
  };
}

export const STATEMENT_FORMATS: readonly StatementFormat[] = [
  {
    id: "flex",
    name: "IBKR Flex XML",
    detect: (text) => text.includes("<FlexQueryResponse") || text.includes("<FlexStatementResponse"),
    parse: parseFlexFile,
  },
  {
    id: "csv",
    name: "CSV (Grader's template)",
    // Anything that is not markup is tried as the template: its header line says whether it is.
    detect: (text) => !text.trimStart().startsWith("<"),
    parse: parseStatementCsv,
  },
];

export function acceptedFormats(): string {
  return STATEMENT_FORMATS.map((f) => f.name).join(" or ");
}

export type StatementRead =
  | ({ ok: true; format: string } & Extract<StatementParse, { ok: true }>)
  | { ok: false; status: 400 | 413 | 415; message: string; errors: string[] };

const refuse = (status: 400 | 413 | 415, message: string, errors: string[] = []): StatementRead => ({
  ok: false,
  status,
  message,
  errors,
});

/** A statement file's bytes → its rows, or why it is refused (a 4xx status and sentences). Pure. */
export function readStatementFile(bytes: Uint8Array): StatementRead {
  if (bytes.byteLength === 0) return refuse(400, "The file is empty.");
  if (bytes.byteLength > MAX_STATEMENT_BYTES)
    return refuse(
      413,
      `The file is larger than ${MAX_STATEMENT_BYTES / 1024 / 1024} MB; split it or export fewer years.`,
    );
  // Archives by their magic bytes, whatever the file's name says: zip (PK\x03\x04, also .xlsx) and gzip.
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)
    return refuse(
      415,
      `The file is a zip archive (or a spreadsheet such as .xlsx). Upload the ${acceptedFormats()} file itself.`,
    );
  if (bytes[0] === 0x1f && bytes[1] === 0x8b)
    return refuse(415, `The file is compressed (gzip). Upload the ${acceptedFormats()} file itself.`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse(415, "The file is not UTF-8 text. Save it as CSV UTF-8 and upload it again.");
  }
  if (text.includes("\u0000")) return refuse(415, "The file holds binary data, not text.");
  const format = STATEMENT_FORMATS.find((f) => f.detect(text));
  if (!format) return refuse(415, `This kind of file is not read here. Accepted formats: ${acceptedFormats()}.`);
  const parsed = format.parse(text);
  if (!parsed.ok)
    return refuse(
      400,
      `The file was not imported: ${parsed.errors.length === 1 ? "one line has" : "some lines have"} a problem. Nothing was changed.`,
      parsed.errors,
    );
  return { ...parsed, format: format.id };
}
