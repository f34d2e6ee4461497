-- chat_sources returns each passage's heading path too. A passage that starts inside a long
-- table holds only rows: the table's title and header row (the years above its figures) are
-- the last entries of its heading path, as the chunker writes them, and the offline answer
-- reads the rows with them as the index does (chunk_index_text). The rest is as in 5300.
drop function public.chat_sources(uuid, text, int, extensions.vector, uuid);

create function public.chat_sources(
  workspace_id uuid,
  query text,
  match_count int default 8,
  query_embedding extensions.vector default null,
  conversation_id uuid default null
)
returns table (
  chunk_id uuid,
  document_id uuid,
  title text,
  page_start int,
  page_end int,
  char_start int,
  char_end int,
  content text,
  document_type text,
  heading_path text[]
)
language plpgsql stable security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  scope uuid[];
begin
  if chat_sources.conversation_id is not null then
    select public.scope_document_ids(c.workspace_id, c.document_ids, c.collection_ids)
    into scope
    from public.conversations c
    where c.id = chat_sources.conversation_id and c.workspace_id = chat_sources.workspace_id;
    if not found then
      return;
    end if;
  end if;

  if cardinality(scope) between 1 and chat_sources.match_count then
    return query
    select c.id, c.document_id, s.title, c.page_start, c.page_end, c.char_start, c.char_end,
      c.content, s.document_type, c.heading_path
    from unnest(scope) with ordinality as d (id, k)
    cross join lateral public.search_document(
      chat_sources.workspace_id, d.id, chat_sources.query, chat_sources.match_count,
      query_embedding => chat_sources.query_embedding, snippets => false
    ) with ordinality s
    join public.chunks c on c.id = s.chunk_id
    order by s.ordinality, d.k
    limit chat_sources.match_count;
    return;
  end if;

  return query
  with ranked as (
    select s.chunk_id, s.document_id, s.title, s.document_type, s.ordinality as place,
      row_number() over (partition by s.document_id order by s.ordinality) as nth
    from public.search_chunks(
      chat_sources.workspace_id, chat_sources.query, chat_sources.match_count,
      document_ids => scope, query_embedding => chat_sources.query_embedding, snippets => false
    ) with ordinality s
  ),
  own as (
    select d.document_id, o.chunk_id, o.ordinality as nth
    from (select distinct r.document_id from ranked r) d
    cross join lateral public.search_document(
      chat_sources.workspace_id, d.document_id, chat_sources.query, chat_sources.match_count,
      query_embedding => chat_sources.query_embedding, snippets => false
    ) with ordinality o
  )
  -- A place its document's own ranking cannot fill (it found fewer passages) keeps the
  -- workspace's passage.
  select c.id, c.document_id, r.title, c.page_start, c.page_end, c.char_start, c.char_end,
    c.content, r.document_type, c.heading_path
  from ranked r
  left join own o on o.document_id = r.document_id and o.nth = r.nth
  join public.chunks c on c.id = coalesce(o.chunk_id, r.chunk_id)
  order by r.place;
end $$;

revoke execute on function public.chat_sources(uuid, text, int, extensions.vector, uuid)
  from public, anon;
grant execute on function public.chat_sources(uuid, text, int, extensions.vector, uuid)
  to authenticated, service_role;
