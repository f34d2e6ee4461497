/**
 * What the sweep found, answer by answer: an attacker's answer must hold no secret (the
 * canary, the invitation's token) and no id of the workspace it was not given, and nothing
 * may fail with a 5xx. The owner's answers count where the canary shows, proving the same
 * calls reach the data.
 */
export class Findings {
  readonly problems: string[] = []
  /** Answers checked, per surface. */
  readonly checked = new Map<string, number>()
  /** The owner's answers that held the canary, per surface. */
  readonly ownerSaw = new Map<string, number>()

  private readonly canary: string
  private readonly secrets: string[]
  private readonly ids: Record<string, string>

  constructor(canary: string, secrets: string[], ids: Record<string, string>) {
    this.canary = canary
    this.secrets = secrets
    this.ids = ids
  }

  /**
   * One attacker's answer; `given` is what it sent, whose ids may come back as an echo. A
   * secret counts even when given: only reads by an object's exact path (its file name holds
   * the canary) are given one, and no answer has any business echoing it.
   */
  attacker(surface: string, what: string, status: number, body: unknown, given = '') {
    this.checked.set(surface, (this.checked.get(surface) ?? 0) + 1)
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    if (status >= 500) this.problems.push(`${what}: HTTP ${status} ${text.slice(0, 300)}`)
    for (const secret of [this.canary, ...this.secrets]) {
      const at = text.indexOf(secret)
      if (at >= 0) {
        this.problems.push(
          `${what}: leaks a secret: …${text.slice(Math.max(0, at - 120), at + 60)}…`,
        )
      }
    }
    for (const [name, id] of Object.entries(this.ids)) {
      if (!given.includes(id) && text.includes(id)) {
        this.problems.push(`${what}: leaks the ${name} id: ${text.slice(0, 300)}`)
      }
    }
  }

  /** One of the owner's answers: a 5xx is a problem; the canary counts as seen. */
  owner(surface: string, what: string, status: number, body: unknown) {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    if (status >= 500) this.problems.push(`${what} (owner): HTTP ${status} ${text.slice(0, 300)}`)
    if (text.includes(this.canary))
      this.ownerSaw.set(surface, (this.ownerSaw.get(surface) ?? 0) + 1)
  }
}
