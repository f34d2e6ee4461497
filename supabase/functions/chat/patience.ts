// A provider that stops answering would hold the stream open and leave the answer
// 'streaming' for ever: every provider call gets an idle timeout.

/** How long the provider may stay silent: before its first token, or between two. */
const IDLE_MS = Number(Deno.env.get('CHAT_PROVIDER_TIMEOUT_MS')) || 30_000

/** Named as the AI layer's providerErrorMessage recognises a timeout. */
class ProviderTimeout extends Error {
  override name = 'TimeoutError'
}

export type Patience = {
  /** Aborts on Stop, or after IDLE_MS without a touch. */
  signal: AbortSignal
  /** The provider said something: the wait starts again. */
  touch(): void
  /**
   * Stops the clock; throws a timeout when that is why the call ended (called in `finally`,
   * so the timeout replaces the abort error it caused).
   */
  end(): void
}

export function patience(stop: AbortSignal): Patience {
  const idle = new AbortController()
  const arm = () => setTimeout(() => idle.abort(), IDLE_MS)
  let timer = arm()
  return {
    signal: AbortSignal.any([stop, idle.signal]),
    touch() {
      clearTimeout(timer)
      timer = arm()
    },
    end() {
      clearTimeout(timer)
      if (idle.signal.aborted && !stop.aborted) {
        throw new ProviderTimeout('The AI provider stopped answering')
      }
    },
  }
}

/** One provider call under an idle timeout. */
export async function patiently<T>(
  stop: AbortSignal,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const wait = patience(stop)
  try {
    return await call(wait.signal)
  } finally {
    wait.end()
  }
}
