// Codes as an authenticator app computes them, from localbase's RFC 6238 implementation
// (unit-tested against the RFC's vectors).
import { totpCode } from '../../../../packages/localbase/src/auth/totp.ts'

/** The code for the current 30 seconds. */
export const currentCode = (secret: string) => totpCode(secret.replace(/\s/g, ''))

/** The next step's code: Auth accepts it (one step of skew) after this step's was spent. */
export const nextCode = (secret: string) => totpCode(secret.replace(/\s/g, ''), Date.now() + 30_000)
