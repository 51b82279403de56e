/**
 * @module Who may do what: the rules over tenant keys, scoped tokens and agent credentials.
 */
export {
  MAX_TOKEN_TTL_SECONDS,
  TOKEN_SCOPES,
  actingUserOf,
  decideAccess,
  decideSessionOwner,
  tokenClaims,
  tokenPrincipal,
  type AccessTarget,
  type OperationClass,
  type Principal,
  type TokenClaims,
} from "./rules.ts";
