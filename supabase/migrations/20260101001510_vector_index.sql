-- The vector half of search_chunks: the chunks nearest to a query embedding, through the
-- per-dimension HNSW index that ensure_embedding_index (20260101001600) creates.

-- The `lim` chunks nearest to the query embedding that pass the filters, nearest first.
-- The cast to the query's dimension (halfvec from 2,001 to 4,000, as the index has it) lets
-- the planner use that dimension's HNSW index; pgvector's iterative scan keeps looking when
-- the workspace and other filters reject neighbours.
create function public.vector_top(
  workspace_id uuid, query_embedding extensions.vector, document_ids uuid[],
  hidden_ids uuid[], types text[], lim int
)
returns table (id uuid, similarity float8)
language plpgsql stable
set search_path = ''
as $$
declare
  dims constant int := extensions.vector_dims(query_embedding);
  kind constant text := case when dims between 2001 and 4000 then 'halfvec' else 'vector' end;
begin
  perform set_config('hnsw.iterative_scan', 'relaxed_order', true);
  return query execute format(
    'select r.id, r.similarity from (
       select c.id, 1 - (c.embedding::extensions.%2$s(%1$s)
                         operator(extensions.<=>) $2::extensions.%2$s(%1$s)) as similarity
       from public.chunks c
       where extensions.vector_dims(c.embedding) = %1$s and c.workspace_id = $1
         and ($3 is null or c.document_id = any ($3))
         and ($4 is null or c.document_id <> all ($4))
         and ($5 is null or exists (
           select from public.documents d
           where d.id = c.document_id and public.document_kind(d.mime_type) = any ($5)))
       order by c.embedding::extensions.%2$s(%1$s)
                operator(extensions.<=>) $2::extensions.%2$s(%1$s)
       limit $6
     ) r
     order by r.similarity desc, r.id', dims, kind)
  using workspace_id, query_embedding, document_ids, hidden_ids, types, lim;
end $$;

revoke execute on function public.vector_top(
  uuid, extensions.vector, uuid[], uuid[], text[], int
) from public, anon, authenticated;
