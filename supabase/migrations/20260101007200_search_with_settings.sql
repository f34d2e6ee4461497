-- The search function's first call in one (issue #16): the workspace's search settings, read
-- as the caller, and the lexical search the function starts with.
--
-- The search Edge Function sent these as two requests side by side: the workspace's row
-- (RLS shows it to its members, so no row means 403, and it names the embedding model and
-- the reranking) and search_chunks (or search_document for one document) without a query
-- embedding, the answer whenever there is no model. On one server that is two HTTP requests
-- into the gateway and two jobs of the database for every search; this is one of each. With
-- an embedding model the function searches again with the query's vector, as before.
--
-- bench:load-kinds (4 filings, 200 searches one at a time, two runs each way alternated with
-- the commit before, load average 12-18 on 2 cores): database jobs per search 2 -> 1,
-- statements 6 -> 2 (with reads' read-only folded into their context), CPU per search in
-- localbase's main thread 5.35/5.1 -> 4.35/3.5 ms, in the function's Deno 2.3/2.3 -> 1.7/1.75
-- ms, in the database worker 9.7/9.15 -> 8.95/8.65 ms (search_chunks is most of it). The main
-- thread's figure includes the same series' gateway change (no fetch Request per call).
--
-- security invoker: the row is read under the workspaces' RLS exactly as the REST read was,
-- and the searches decide for themselves whom they answer. Null when the caller cannot see
-- the workspace. The results are the search's rows as PostgREST renders a function's rows.
create function public.search_with_settings(
  workspace_id uuid,
  query text,
  match_count int default 10,
  document_ids uuid[] default null,
  types text[] default null
)
returns json
language plpgsql
stable
set search_path = ''
as $$
declare
  settings record;
  results json;
begin
  select w.embedding_model, w.chat_model, w.reranking into settings
  from public.workspaces w
  where w.id = search_with_settings.workspace_id;
  if not found then
    return null;
  end if;
  -- Kept to one document, its passages are ranked by that document's own statistics.
  if cardinality(search_with_settings.document_ids) = 1 then
    select coalesce(json_agg(r), '[]') into results
    from public.search_document(
      workspace_id => search_with_settings.workspace_id,
      document => search_with_settings.document_ids[1],
      query => search_with_settings.query,
      match_count => search_with_settings.match_count,
      types => search_with_settings.types
    ) r;
  else
    select coalesce(json_agg(r), '[]') into results
    from public.search_chunks(
      workspace_id => search_with_settings.workspace_id,
      query => search_with_settings.query,
      match_count => search_with_settings.match_count,
      document_ids => search_with_settings.document_ids,
      types => search_with_settings.types
    ) r;
  end if;
  return json_build_object(
    'embedding_model', settings.embedding_model,
    'chat_model', settings.chat_model,
    'reranking', settings.reranking,
    'results', results
  );
end $$;

revoke execute on function public.search_with_settings(uuid, text, int, uuid[], text[])
  from public, anon;
grant execute on function public.search_with_settings(uuid, text, int, uuid[], text[])
  to authenticated, service_role;
