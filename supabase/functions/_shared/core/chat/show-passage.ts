// Generated from packages/core/src/chat/show-passage.ts by `npm run sync:core`: edit that file, not this one.
/**
 * The words an answer uses to point at a passage it does not quote (a table, a long list):
 * "… show passage [2]." The citation check reads such a sentence as a pointer, not a claim.
 */
export const SHOW_PASSAGE = 'show passage'

/** Whether an answer sentence only points at its passage. */
export const isPointer = (sentence: string) =>
  new RegExp(`${SHOW_PASSAGE}\\s*(?:\\[[\\d,\\s]+\\]\\s*)+[.!]?$`, 'i').test(sentence)
