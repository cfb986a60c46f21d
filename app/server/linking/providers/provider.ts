import type { LinkedAccountKind } from "~/lib/vocabulary";
import type { Provider } from "../../platform/demo.server";
import type { StepFailure, StepRow } from "../steps.server";

/**
 * One kind of linked account (docs/ARCHITECTURE.md, "A provider"): its import step, how its own
 * errors read, and the simulator that answers for it in demo mode. C is the provider's part of
 * an import's cursor, which no other code reads.
 */
export type AccountProvider<C extends object> = {
  kind: LinkedAccountKind;
  /** One import step: a page fetched, or a part of the mapped rows stored, with the next job (commitStep). */
  step(row: StepRow<C>): Promise<void>;
  /** This provider's own errors as a step's failure; null for any other error. */
  failure?(error: unknown): StepFailure | null;
  /**
   * The demo setting whose simulator answers for it (platform/demo.server.ts, `isSimulated`); none
   * for an uploaded statement, which no outside service serves.
   */
  simulator: Provider | null;
};
