-- Promoting a new embedding model and dropping stale vectors in short steps (#16). Both used
-- to rewrite a whole workspace in one transaction (promote_embedding_model copied every
-- staged vector into chunks.embedding; the drop_stale_embeddings trigger nulled every vector
-- on an owner's model change), holding PGlite's one connection for seconds on one filing.
--
-- Each chunk now says which model its vector was made with (chunks.embedding_model), and
-- search reads only the active model's vectors, so a switch no longer has to rewrite them to
-- be correct. Promotion makes the pending model active in one short transaction once every
-- chunk has a staged vector; the staged vectors then move into chunks a few at a time
-- (settle_embeddings), and until a chunk's has moved, search reads it from staging. Vectors
-- of any other model are dropped the same way. Every step is its own transaction and leaves
-- a state search reads consistently and the next step (after a crash too) carries on from.
--
-- Redefines: vector_top, chunks_to_embed, embedding_remaining, promote_embedding_model;
-- drops the drop_stale_embeddings trigger and function.

alter table public.chunks add column embedding_model text;

-- Until now chunks.embedding held the workspace's active model's vector, if any.
update public.chunks c set embedding_model = w.embedding_model
from public.workspaces w
where w.id = c.workspace_id and c.embedding is not null;

-- Finds the vectors of a model other than the active one (stale) without reading the rest.
create index chunks_embedded_model_idx on public.chunks (workspace_id, embedding_model)
where embedding is not null;

-- A vector is tagged with the model active when it is written: the embed function writes
-- only the active model's vectors into chunks (a pending model's go to chunk_embeddings),
-- and an editor writing one directly writes it for the model search will query with.
create function public.tag_chunk_embedding() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.embedding_model := case when new.embedding is not null then
    (select w.embedding_model from public.workspaces w where w.id = new.workspace_id) end;
  return new;
end $$;

-- Not called for the chunks an import inserts without a vector.
create trigger tag_chunk_embedding
before insert or update of embedding, embedding_model on public.chunks
for each row when (new.embedding is not null or new.embedding_model is not null)
execute function public.tag_chunk_embedding();

revoke execute on function public.tag_chunk_embedding() from public, anon, authenticated;

drop trigger drop_stale_embeddings on public.workspaces;
drop function public.drop_stale_embeddings();

-- The `lim` chunks nearest to the query embedding that pass the filters, nearest first,
-- among the vectors of the workspace's active model: those in chunks (through the HNSW
-- index of the query's dimension) and, while a promotion's vectors are still moving in,
-- those still staged (an exact scan of what is left). A vector of another model, stale or
-- not yet promoted, is never compared with the query. Without a model, the vectors written
-- without one (tests writing vectors directly) are read.
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
begin
  select w.embedding_model into model from public.workspaces w where w.id = vector_top.workspace_id;
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

-- Chunks with no vector of `model` anywhere: not in staging (while it is pending), or, for
-- the active model, neither in chunks nor staged waiting to move in.
create or replace function public.chunks_to_embed(
  workspace_id uuid, document_id uuid, model text, staging boolean, lim int
) returns table (id uuid, content text)
language sql stable
set search_path = ''
as $$
  select c.id, c.content
  from public.chunks c
  where c.workspace_id = chunks_to_embed.workspace_id
    and (chunks_to_embed.document_id is null or c.document_id = chunks_to_embed.document_id)
    and (staging or c.embedding is null)
    and not exists (select 1 from public.chunk_embeddings e
                    where e.chunk_id = c.id and e.model = chunks_to_embed.model)
  limit lim
$$;

-- While `model` is pending: chunks with no staged vector of it. While it is active: chunks
-- whose vector of it is not yet in chunks (none made, staged and not yet moved in, or a
-- stale one of another model in its place), so a caller keeps calling until all are.
create or replace function public.embedding_remaining(
  workspace_id uuid, document_id uuid, model text, staging boolean
) returns int
language sql stable
set search_path = ''
as $$
  select case when staging then (
    select count(*)::int
    from public.chunks c
    where c.workspace_id = embedding_remaining.workspace_id
      and (embedding_remaining.document_id is null
           or c.document_id = embedding_remaining.document_id)
      and not exists (select 1 from public.chunk_embeddings e
                      where e.chunk_id = c.id and e.model = embedding_remaining.model))
  else (
    select count(*)::int
    from public.chunks c
    where c.workspace_id = embedding_remaining.workspace_id
      and (embedding_remaining.document_id is null
           or c.document_id = embedding_remaining.document_id)
      and c.embedding is null)
    + (select count(*)::int
       from public.chunks c
       where c.workspace_id = embedding_remaining.workspace_id
         and (embedding_remaining.document_id is null
              or c.document_id = embedding_remaining.document_id)
         and c.embedding is not null
         -- Ranges of chunks_embedded_model_idx, where `is distinct from` would read all of it.
         and (c.embedding_model is null or c.embedding_model < embedding_remaining.model
              or c.embedding_model > embedding_remaining.model))
  end
$$;

-- Makes a pending model whose vectors are all staged the active one. Only the two model
-- columns change: the staged vectors serve search from where they are and settle_embeddings
-- moves them into chunks. Returns whether it promoted.
create or replace function public.promote_embedding_model(workspace_id uuid) returns boolean
language plpgsql volatile
set search_path = ''
as $$
declare
  ws constant uuid := promote_embedding_model.workspace_id;
  pending text;
begin
  select w.pending_embedding_model into pending
  from public.workspaces w where w.id = ws for update;
  if pending is null or public.embedding_remaining(ws, null, pending, true) > 0 then
    return false;
  end if;
  update public.workspaces w
  set embedding_model = pending, pending_embedding_model = null
  where w.id = ws;
  return true;
end $$;

-- One short step of upkeep for a workspace's vectors (or one document's), as jsonb
-- { moved, dropped }, both 0 once nothing is left to do: moves staged vectors of the active
-- model into chunks, up to `move_numbers` vector numbers (each goes into an HNSW index, whose
-- cost grows with the dimension); else drops up to `max_drops` vectors of models neither
-- active nor pending, staged or in chunks. Moves go first, so a chunk's stale vector is
-- replaced, not dropped and made again.
create function public.settle_embeddings(
  workspace_id uuid, document_id uuid, move_numbers int, max_drops int
) returns jsonb
language plpgsql volatile
set search_path = ''
as $$
declare
  ws constant uuid := settle_embeddings.workspace_id;
  doc constant uuid := settle_embeddings.document_id;
  active text;
  pending text;
  moving uuid[];
  dropped int;
  nulled int;
begin
  -- Shared lock: no promotion or model change between reading the models and the writes.
  select w.embedding_model, w.pending_embedding_model into active, pending
  from public.workspaces w where w.id = ws for share;

  select array_agg(e.chunk_id) into moving
  from (select e.chunk_id
        from public.chunk_embeddings e join public.chunks c on c.id = e.chunk_id
        where e.workspace_id = ws and e.model = active
          and (doc is null or c.document_id = doc)
        limit greatest(1, move_numbers / (
          select extensions.vector_dims(s.embedding) from public.chunk_embeddings s
          where s.workspace_id = ws and s.model = active limit 1))) e;
  if moving is not null then
    update public.chunks c set embedding = e.embedding
    from public.chunk_embeddings e
    where e.chunk_id = c.id and e.model = active and c.id = any (moving);
    delete from public.chunk_embeddings e where e.model = active and e.chunk_id = any (moving);
    return jsonb_build_object('moved', cardinality(moving), 'dropped', 0);
  end if;

  delete from public.chunk_embeddings e
  where (e.chunk_id, e.model) in (
    select s.chunk_id, s.model
    from public.chunk_embeddings s join public.chunks c on c.id = s.chunk_id
    where s.workspace_id = ws and (doc is null or c.document_id = doc)
      and s.model is distinct from active and s.model is distinct from pending
    limit max_drops);
  get diagnostics dropped = row_count;
  update public.chunks c set embedding = null
  where c.id in (
    select s.id from public.chunks s
    where s.workspace_id = ws and (doc is null or s.document_id = doc)
      and s.embedding is not null
      and case when active is null then s.embedding_model is not null
          else s.embedding_model is null
               or s.embedding_model < active or s.embedding_model > active end
    limit greatest(max_drops - dropped, 0));
  get diagnostics nulled = row_count;
  return jsonb_build_object('moved', 0, 'dropped', dropped + nulled);
end $$;

revoke execute on function public.settle_embeddings(uuid, uuid, int, int)
from public, anon, authenticated;
grant execute on function public.settle_embeddings(uuid, uuid, int, int) to service_role;
