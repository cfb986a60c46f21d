// Grader engine: pure, deterministic, no I/O. grade() (grade.ts) takes a ledger validated by
// parseLedger, or that ledger already prepared (columnar) by prepareLedger (prepare.ts). This file
// is the engine's public surface.
export { grade, cryptoShare, dominantAssetClass, listRoundTrips } from "./grade";
export { ENGINE_VERSION, ENGINE_CHANGELOG } from "./version";
export { LEVERAGE_CAP } from "./exposure";
export { parseLedger, LedgerSchema, formatPath } from "./ledger";
export { prepareLedger } from "./prepare";
export { withBenchmarkColumns, withRiskFreeColumns, type PreparedLedger } from "./columns";
export type {
  Ledger,
  LedgerInput,
  Trade,
  CashFlow,
  PriceMark,
  ParseResult,
  AssetClass,
  LedgerEvent,
  Benchmark,
  RiskFree,
} from "./ledger";
export { MAX_SPAN_YEARS, TRUSTED_CONFIDENCE } from "./ledger";
export { isTimeZone } from "./time";
export { normalCdf, skillFigures } from "./stats";
export {
  canonicalJson,
  canonicalize,
  ledgerDigest,
  canonicalLedger,
  canonicalLedgerBytes,
  canonicalLedgerParts,
  type LedgerTextParts,
  sha256Hex,
  roundNumber,
} from "./canonical";
export { percentileOf, tierOf, starsOf, tierStars, ramp, ANCHORS, DIMENSION_WEIGHTS } from "./score";
export { xirr } from "./returns";
export { releaseScratch } from "./scratch";
export type { Tier, Dimension } from "./score";
export type {
  Evaluation,
  Metrics,
  Position,
  Insight,
  CurvePoint,
  Stars,
  GradeOptions,
  BenchmarkMetrics,
  RoundTrip,
} from "./types";
