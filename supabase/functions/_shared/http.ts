// Shared by every function. The app may be served from another origin than the API (Vite in
// development), so every answer carries CORS headers and the preflight is answered here, as the
// platform leaves it to the function.
export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
}

/** A JSON answer with the CORS headers. */
export const reply = (body: unknown, status = 200): Response =>
  Response.json(body, { status, headers: corsHeaders })

/** An error as `{ code, message }`, which supabase-js hands back in `error.context`. */
export const fail = (status: number, code: string, message: string): Response =>
  reply({ code, message }, status)
