// Runs a real localbase for the web tests in its own Node process and prints its URL.
// Usage: node start-localbase.ts <workdir> <dataDir>; stops on SIGTERM.
import {
  DEFAULT_JWT_SECRET,
  relaxedAuthLimits,
  startLocalbase,
} from '../../../../packages/localbase/src/index.ts'
import { startFakeProvider } from '../../../../tests/fake-provider/server.ts'

const [workdir, dataDir] = process.argv.slice(2)
// A fake OpenAI behind the functions, so AI features run their real code; nothing calls it
// until a workspace's owner picks one of its models.
const provider = await startFakeProvider({ instant: true })
const localbase = await startLocalbase({
  workdir,
  dataDir,
  port: 0,
  env: {
    ...process.env,
    PORT: '',
    HOST: '',
    DATA_DIR: '',
    ...relaxedAuthLimits,
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `${provider.url}/v1`,
    // An OpenAI-compatible server offering only a rerank model, for the reranking choice.
    OPENAI_COMPATIBLE_BASE_URL: `${provider.url}/v1`,
    OPENAI_COMPATIBLE_RERANK_MODEL: 'fake-rerank',
    // Access tokens' short-lived JWTs are signed with the project's secret.
    ACCESS_TOKEN_JWT_SECRET: DEFAULT_JWT_SECRET,
  },
})
process.stdout.write(`${JSON.stringify({ url: localbase.url })}\n`)
process.on('SIGTERM', () => void localbase.stop().then(() => process.exit(0)))
