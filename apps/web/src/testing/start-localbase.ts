// Runs a real localbase for the web tests in its own Node process and prints its URL.
// Usage: node start-localbase.ts <workdir> <dataDir>; stops on SIGTERM.
import { startLocalbase } from '../../../../packages/localbase/src/index.ts'

const [workdir, dataDir] = process.argv.slice(2)
const localbase = await startLocalbase({
  workdir,
  dataDir,
  port: 0,
  env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '' },
})
process.stdout.write(`${JSON.stringify({ url: localbase.url })}\n`)
process.on('SIGTERM', () => void localbase.stop().then(() => process.exit(0)))
