/**
 * Environment for a stack whose every client is this machine (test suites, benchmarks): the
 * per-address auth limits are then one shared budget, so they are raised out of the way.
 * The burst stays GoTrue's 30; the refill becomes effectively immediate.
 */
export const relaxedAuthLimits: Record<string, string> = {
  AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000000',
  AUTH_RATE_LIMIT_TOKEN_REFRESH: '1000000',
  AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '1000000',
  AUTH_RATE_LIMIT_ANONYMOUS_USERS: '1000000',
}
