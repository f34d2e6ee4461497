import type { ServiceContext } from '../context.ts'
import type { Plan } from './plan.ts'
import { loadSchemaCache, type SchemaCache } from './schema-cache.ts'

const maxPlans = 2000

/** The schema cache and compiled read plans; both rebuilt on NOTIFY pgrst, 'reload schema'. */
export class RestState {
  readonly ctx: ServiceContext
  cache!: SchemaCache
  private readonly plans = new Map<string, Plan>()
  private unlisten: (() => Promise<void>) | null = null

  constructor(ctx: ServiceContext) {
    this.ctx = ctx
  }

  async start(): Promise<void> {
    await this.reload()
    this.unlisten = await this.ctx.db.pg.listen('pgrst', (payload) => {
      if (payload === '' || payload === 'reload schema') void this.reload()
    })
  }

  async reload(): Promise<void> {
    const schemas = this.ctx.config.api.schemas
    this.cache = await this.ctx.db.asService((tx) => loadSchemaCache(tx, schemas))
    this.plans.clear()
  }

  /** Reads are compiled once per distinct URL and headers; values are part of the key. */
  plan(key: string | null, compile: () => Plan): Plan {
    if (key === null) return compile()
    const cached = this.plans.get(key)
    if (cached) return cached
    const plan = compile()
    if (this.plans.size >= maxPlans) this.plans.delete(this.plans.keys().next().value as string)
    this.plans.set(key, plan)
    return plan
  }

  async close(): Promise<void> {
    await this.unlisten?.()
  }
}
