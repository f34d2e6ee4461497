import type { SupabaseClient } from '@supabase/supabase-js'
import { DEFAULT_ANON_KEY } from '../../../../packages/localbase/src/index.ts'

/** One way to read Storage, answering the HTTP status and what came back. */
export type Read = { what: string; run(): Promise<{ status: number; body: unknown }> }

type Answer = { data: unknown; error: unknown }

/** A supabase-js answer as status and body: the error's status, else 200. */
async function settle(answer: Promise<Answer>): Promise<{ status: number; body: unknown }> {
  const { data, error } = await answer
  return { status: (error as { status?: number } | null)?.status ?? 200, body: { data, error } }
}

/**
 * Every read `client` can attempt: each bucket fetched and listed at each prefix, all
 * buckets listed, and each object downloaded, described, signed and fetched by its public URL.
 */
export function storageReads(
  client: SupabaseClient,
  buckets: string[],
  prefixes: string[],
  objects: { bucket: string; name: string }[],
): Read[] {
  return [
    { what: 'listBuckets', run: () => settle(client.storage.listBuckets()) },
    ...buckets.flatMap((bucket) => [
      { what: `getBucket ${bucket}`, run: () => settle(client.storage.getBucket(bucket)) },
      ...prefixes.map((prefix) => ({
        what: `list ${bucket}/${prefix}`,
        run: () => settle(client.storage.from(bucket).list(prefix, { limit: 1000 })),
      })),
    ]),
    ...objects.flatMap(({ bucket, name }) => {
      const from = client.storage.from(bucket)
      return [
        {
          what: `download ${bucket}/${name}`,
          run: () =>
            settle(
              from.download(name).then(async ({ data, error }) => ({
                data: data && (await data.text()),
                error,
              })),
            ),
        },
        { what: `info ${bucket}/${name}`, run: () => settle(from.info(name)) },
        { what: `sign ${bucket}/${name}`, run: () => settle(from.createSignedUrl(name, 60)) },
        {
          what: `public ${bucket}/${name}`,
          run: async () => {
            const res = await fetch(from.getPublicUrl(name).data.publicUrl, {
              headers: { apikey: DEFAULT_ANON_KEY },
            })
            return { status: res.status, body: await res.text() }
          },
        },
      ]
    }),
  ]
}
