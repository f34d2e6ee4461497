// The Supabase CLI's well-known local credentials (docs/supabase-wire-surface.md §1.3).
// Tests written for `supabase start` rely on exactly these values.
export const DEFAULT_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
export const DEFAULT_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'
export const DEFAULT_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'
export const DEFAULT_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH'
export const DEFAULT_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz'

export type Keys = {
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
  publishableKey: string
  secretKey: string
}

export function keysFromEnv(env: NodeJS.ProcessEnv): Keys {
  return {
    jwtSecret: env.JWT_SECRET || DEFAULT_JWT_SECRET,
    anonKey: env.ANON_KEY || DEFAULT_ANON_KEY,
    serviceRoleKey: env.SERVICE_ROLE_KEY || DEFAULT_SERVICE_ROLE_KEY,
    publishableKey: env.PUBLISHABLE_KEY || DEFAULT_PUBLISHABLE_KEY,
    secretKey: env.SECRET_KEY || DEFAULT_SECRET_KEY,
  }
}
