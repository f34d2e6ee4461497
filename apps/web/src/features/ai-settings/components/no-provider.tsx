/** What the app does without a provider, and how an operator adds one. */
export function NoProvider() {
  return (
    <div className="grid gap-2 text-sm">
      <p>
        No AI provider is configured on the server: search is lexical and answers are extracted from
        the documents.
      </p>
      <p className="text-muted-foreground">
        To add one, set <code>OPENAI_API_KEY</code>, <code>ANTHROPIC_API_KEY</code>,{' '}
        <code>GOOGLE_GENERATIVE_AI_API_KEY</code>, or <code>OPENAI_COMPATIBLE_BASE_URL</code> with
        its model names (Ollama, LM Studio, vLLM…) in <code>supabase/functions/.env</code>, then
        restart the server. See <code>supabase/functions/.env.example</code>.
      </p>
    </div>
  )
}
