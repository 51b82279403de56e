/**
 * @module What the domain needs to run maintenance: a deployment-wide run lock, so one cron run works at a time.
 */

/**
 * A lease that admits one holder at a time across the deployment (the cron's cleanup run), taken
 * under an owner token and released only by that owner. A lease its holder never releases (the
 * isolate died) expires on its own.
 */
export interface RunLock {
  /** Takes the lease for `leaseMs` under `token` unless another holder has it; false when held. */
  tryAcquire(token: string, leaseMs: number): Promise<boolean>;
  /** Frees the lease if `token` still holds it (a holder whose lease expired never frees the next holder's). */
  release(token: string): Promise<void>;
}
