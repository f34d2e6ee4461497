// turndown ships no types; packages/core's HTML extraction imports it by its bare name, which
// deno.json maps here, so Deno type-checks it with the same @types package as Node does.
// @ts-types="npm:@types/turndown@5.0.6"
import TurndownService from 'npm:turndown@7.2.5'

export default TurndownService
