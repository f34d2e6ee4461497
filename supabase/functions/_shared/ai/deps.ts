// The AI SDK and its providers, pinned in this one place so every function uses the same
// versions (Deno downloads npm: specifiers on first use).
export {
  APICallError,
  embed,
  embedMany,
  generateText,
  rerank,
  RetryError,
  streamText,
} from 'npm:ai@7.0.173'
export type { EmbeddingModel, LanguageModel, RerankingModel } from 'npm:ai@7.0.173'
export { createOpenAI } from 'npm:@ai-sdk/openai@4.0.118'
export { createAnthropic } from 'npm:@ai-sdk/anthropic@4.0.105'
export { createGoogleGenerativeAI } from 'npm:@ai-sdk/google@4.0.121'
export { createOpenAICompatible } from 'npm:@ai-sdk/openai-compatible@3.0.92'
