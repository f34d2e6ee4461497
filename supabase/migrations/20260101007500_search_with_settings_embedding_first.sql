-- search_with_settings (20260101007200) without the lexical pass a workspace with an
-- embedding model throws away: the search function then searches with the query's vector
-- (hybrid, lexical included), so that pass cost a whole search_chunks or search_document for
-- nothing. It answers the settings with `results` null; the function searches lexically
-- itself when embedding the query fails.
create or replace function public.search_with_settings(
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
  -- With an embedding model the function searches with the query's vector (hybrid, lexical
  -- included): a lexical pass here would be thrown away. It searches lexically itself when
  -- embedding the query fails.
  if settings.embedding_model is null then
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
  end if;
  return json_build_object(
    'embedding_model', settings.embedding_model,
    'chat_model', settings.chat_model,
    'reranking', settings.reranking,
    'results', results
  );
end $$;
