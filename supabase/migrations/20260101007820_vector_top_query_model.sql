-- Search's model race (#16): the search function reads the workspace's embedding model,
-- embeds the query with it, then searches; a promotion in between (20260101007300) had
-- vector_top compare the query's vector, of the old model, with the new model's vectors.
-- The search and chat functions now say which model made the query's vector (the request
-- header x-query-embedding-model, which PostgREST hands the database in request.headers),
-- and vector_top finds nothing when it is no longer the active model, so the search ranks
-- lexically, as when embedding the query fails. Callers that do not say (a client passing
-- its own vector) are read as before. Redefines vector_top as 20260101007300 left it, with
-- that check first.

create or replace function public.vector_top(
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
  filters constant text :=
    'c.workspace_id = $1
     and ($3 is null or c.document_id = any ($3))
     and ($4 is null or c.document_id <> all ($4))
     and ($5 is null or exists (
       select from public.documents d
       where d.id = c.document_id and public.document_kind(d.mime_type) = any ($5)))';
  model text;
  -- The model the caller embedded the query with, if it says (the search and chat functions
  -- do), as PostgREST passes request headers.
  query_model constant text :=
    nullif(current_setting('request.headers', true), '')::json ->> 'x-query-embedding-model';
begin
  select w.embedding_model into model from public.workspaces w where w.id = vector_top.workspace_id;
  -- Promoted since the caller read the model: its query vector and these vectors are of
  -- different models, and no similarity between them means anything. Lexical ranks alone.
  if query_model is not null and query_model is distinct from model then
    return;
  end if;
  perform set_config('hnsw.iterative_scan', 'relaxed_order', true);
  return query execute format(
    'select r.id, r.similarity from (
       (select c.id, 1 - (c.embedding::extensions.%2$s(%1$s)
                          operator(extensions.<=>) $2::extensions.%2$s(%1$s)) as similarity
        from public.chunks c
        where extensions.vector_dims(c.embedding) = %1$s and %3$s
          and c.embedding_model is not distinct from $7
        order by c.embedding::extensions.%2$s(%1$s)
                 operator(extensions.<=>) $2::extensions.%2$s(%1$s)
        limit $6)
       union all
       (select c.id, 1 - (e.embedding operator(extensions.<=>) $2) as similarity
        from public.chunk_embeddings e
        join public.chunks c on c.id = e.chunk_id
        where e.workspace_id = $1 and e.model = $7 and %3$s
          and extensions.vector_dims(e.embedding) = %1$s
          and c.embedding_model is distinct from $7
        order by e.embedding operator(extensions.<=>) $2
        limit $6)
     ) r
     order by r.similarity desc, r.id
     limit $6', dims, kind, filters)
  using workspace_id, query_embedding, document_ids, hidden_ids, types, lim, model;
end $$;
