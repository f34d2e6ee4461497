export { startLocalbase, type Localbase } from './server.ts'
export { loadConfig, type LocalbaseConfig } from './config/config.ts'
export * from './config/keys.ts'
export { relaxedAuthLimits } from './config/relaxed-limits.ts'
