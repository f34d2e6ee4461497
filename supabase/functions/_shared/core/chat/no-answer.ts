// Generated from packages/core/src/chat/no-answer.ts by `npm run sync:core`: edit that file, not this one.
/**
 * What an offline answer says when no passage clears the relevance bar. The chat shows the
 * closest passages as cards under it, so the reader can judge for themselves.
 */
export const NO_ANSWER = "I couldn't find a passage that answers this."
