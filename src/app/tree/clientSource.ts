import type { PlatformClient } from '../../api/client';

/** What the views need from the connection (accounts/connection.ts implements it). */
export interface ClientSource {
  /** Changes on every account switch or edit; answers fetched under an older epoch are dropped. */
  readonly epoch: number;
  readonly hasAccount: boolean;
  /** Id of the active account profile (undefined: none). */
  readonly accountId: string | undefined;
  activeClient(): Promise<PlatformClient>;
}
