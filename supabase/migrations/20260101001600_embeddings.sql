-- What the embed function needs: who may embed what (as the caller), the next chunks
-- lacking a vector for a model, writing vectors where they belong (chunks.embedding for the
-- active model, chunk_embeddings while a new one is being built), the swap that promotes a
-- complete new model in one transaction, and an HNSW index per vector dimension.

-- Embed calls per user in the current one-minute window (durable: hosted functions run
-- many short-lived processes, so a counter in memory would not hold).
create table public.embed_rate_limits (
  user_id uuid primary key references auth.users (id) on delete cascade,
  window_start timestamptz not null,
  calls int not null
);

alter table public.embed_rate_limits enable row level security;
revoke all on public.embed_rate_limits from anon, authenticated;

-- Chunks still lacking a vector for the active model: found through this index, which
-- shrinks as vectors arrive, rather than by scanning every chunk of the workspace.
create index chunks_unembedded_idx on public.chunks (workspace_id) where embedding is null;

-- Whether the caller may embed, for a document or a whole workspace, and with what, as jsonb
-- with `status`: 'unauthenticated', 'not_found' (no document the caller can see),
-- 'forbidden' (not an editor or owner), 'rate_limited' (+ retry_after), 'no_model', or 'ok'
-- with workspace_id, model (the pending one while it is being built, else the active one)
-- and staging (whether that is the pending model).
create function public.embed_scope(
  workspace_id uuid, document_id uuid, max_per_minute int
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid constant uuid := (select auth.uid());
  ws uuid := embed_scope.workspace_id;
  active text;
  pending text;
  started timestamptz;
  taken int;
begin
  if uid is null then
    return jsonb_build_object('status', 'unauthenticated');
  end if;
  if embed_scope.document_id is not null then
    select d.workspace_id into ws from public.documents d where d.id = embed_scope.document_id;
    if ws is null or not public.has_role(ws, 'viewer') then
      return jsonb_build_object('status', 'not_found');
    end if;
  end if;
  if not public.has_role(ws, 'editor') then
    return jsonb_build_object('status', 'forbidden');
  end if;
  insert into public.embed_rate_limits as r (user_id, window_start, calls)
  values (uid, now(), 1)
  on conflict (user_id) do update set
    window_start = case when r.window_start <= now() - interval '1 minute' then now()
                        else r.window_start end,
    calls = case when r.window_start <= now() - interval '1 minute' then 1 else r.calls + 1 end
  returning r.window_start, r.calls into started, taken;
  if taken > max_per_minute then
    return jsonb_build_object('status', 'rate_limited', 'retry_after',
      greatest(1, ceil(extract(epoch from started + interval '1 minute' - now())))::int);
  end if;
  select w.embedding_model, w.pending_embedding_model into active, pending
  from public.workspaces w where w.id = ws;
  if coalesce(pending, active) is null then
    return jsonb_build_object('status', 'no_model', 'workspace_id', ws);
  end if;
  return jsonb_build_object('status', 'ok', 'workspace_id', ws,
    'model', coalesce(pending, active), 'staging', pending is not null);
end $$;

-- A chunk lacks a vector for `model` when the model is being built (staging) and has no
-- chunk_embeddings row, or when it is the active one and chunks.embedding is null.
create function public.chunks_to_embed(
  workspace_id uuid, document_id uuid, model text, staging boolean, lim int
) returns table (id uuid, content text)
language sql stable
set search_path = ''
as $$
  select c.id, c.content
  from public.chunks c
  where c.workspace_id = chunks_to_embed.workspace_id
    and (chunks_to_embed.document_id is null or c.document_id = chunks_to_embed.document_id)
    and case when staging
      then not exists (select 1 from public.chunk_embeddings e
                       where e.chunk_id = c.id and e.model = chunks_to_embed.model)
      else c.embedding is null end
  limit lim
$$;

create function public.embedding_remaining(
  workspace_id uuid, document_id uuid, model text, staging boolean
) returns int
language sql stable
set search_path = ''
as $$
  select count(*)::int
  from public.chunks c
  where c.workspace_id = embedding_remaining.workspace_id
    and (embedding_remaining.document_id is null
         or c.document_id = embedding_remaining.document_id)
    and case when staging
      then not exists (select 1 from public.chunk_embeddings e
                       where e.chunk_id = c.id and e.model = embedding_remaining.model)
      else c.embedding is null end
$$;

-- Writes vectors made with `model` (pgvector text, '[0.1,...]') where that model's vectors
-- live now: staging while it is pending, chunks.embedding while it is active, nowhere when
-- the workspace moved on meanwhile. A document still being processed shows its progress.
-- Returns how many were written.
create function public.store_chunk_embeddings(
  workspace_id uuid, document_id uuid, model text, chunk_ids uuid[], embeddings text[]
) returns int
language plpgsql volatile
set search_path = ''
as $$
declare
  ws constant uuid := store_chunk_embeddings.workspace_id;
  active text;
  pending text;
  written int;
begin
  if cardinality(chunk_ids) is distinct from cardinality(embeddings) then
    raise exception 'one embedding per chunk id' using errcode = '22023';
  end if;
  -- Shared lock: a promotion cannot swap the staged vectors out from under this write.
  select w.embedding_model, w.pending_embedding_model into active, pending
  from public.workspaces w where w.id = ws for share;
  if pending = model then
    insert into public.chunk_embeddings (chunk_id, workspace_id, model, embedding)
    select c.id, ws, store_chunk_embeddings.model, u.e::extensions.vector
    from unnest(chunk_ids, embeddings) u (id, e)
    join public.chunks c on c.id = u.id and c.workspace_id = ws
    on conflict on constraint chunk_embeddings_pkey do update set embedding = excluded.embedding;
  elsif pending is null and active = model then
    update public.chunks c set embedding = u.e::extensions.vector
    from unnest(chunk_ids, embeddings) u (id, e)
    where c.id = u.id and c.workspace_id = ws;
  else
    return 0;
  end if;
  get diagnostics written = row_count;
  if document_id is not null then
    update public.documents d
    set stage = 'embedding',
      progress = 0.9 + 0.1 * (1 - public.embedding_remaining(ws, d.id, model, pending = model)
                                  / greatest(d.chunk_count, 1)::real)
    where d.id = document_id and d.workspace_id = ws and d.status = 'processing';
  end if;
  return written;
end $$;

-- Swaps the pending model's staged vectors into chunks.embedding and makes it the active
-- model, in one transaction, once every chunk has one; until then the old vectors keep
-- serving search. Returns whether it promoted.
create function public.promote_embedding_model(workspace_id uuid) returns boolean
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
  update public.chunks c set embedding = e.embedding
  from public.chunk_embeddings e
  where e.chunk_id = c.id and e.model = pending and c.workspace_id = ws;
  delete from public.chunk_embeddings e where e.workspace_id = ws;
  perform set_config('sourcebook.promoting', 'on', true);
  update public.workspaces w
  set embedding_model = pending, pending_embedding_model = null
  where w.id = ws;
  perform set_config('sourcebook.promoting', 'off', true);
  return true;
end $$;

-- An owner changing the active model directly (not through a promotion) makes the old
-- vectors meaningless: they go, and the embed function makes new ones. Staged vectors of a
-- model no longer pending go too.
create function public.drop_stale_embeddings() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.embedding_model is distinct from old.embedding_model
    and current_setting('sourcebook.promoting', true) is distinct from 'on' then
    update public.chunks c set embedding = null
    where c.workspace_id = new.id and c.embedding is not null;
  end if;
  if new.pending_embedding_model is distinct from old.pending_embedding_model then
    delete from public.chunk_embeddings e
    where e.workspace_id = new.id and e.model is distinct from new.pending_embedding_model;
  end if;
  return null;
end $$;

create trigger drop_stale_embeddings
after update of embedding_model, pending_embedding_model on public.workspaces
for each row execute function public.drop_stale_embeddings();

-- An HNSW index for one vector dimension. The column is dimension-free (each workspace picks
-- its model), so each index is on a fixed-dimension cast of the rows of that dimension:
-- vector up to 2,000 dimensions, halfvec up to 4,000 (pgvector's HNSW limits); above that,
-- search scans exactly. Queries use it by ordering on the same expression with the same
-- `vector_dims(embedding) = <dims>` condition.
create function public.ensure_embedding_index(dims int) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if dims is null or dims not between 1 and 16000 then
    raise exception 'dims must be between 1 and 16000' using errcode = '22023';
  end if;
  if dims <= 2000 then
    execute format(
      'create index if not exists %I on public.chunks using hnsw '
      '((embedding::extensions.vector(%s)) extensions.vector_cosine_ops) '
      'where extensions.vector_dims(embedding) = %s',
      'chunks_embedding_' || dims || '_idx', dims, dims);
  elsif dims <= 4000 then
    execute format(
      'create index if not exists %I on public.chunks using hnsw '
      '((embedding::extensions.halfvec(%s)) extensions.halfvec_cosine_ops) '
      'where extensions.vector_dims(embedding) = %s',
      'chunks_embedding_' || dims || '_idx', dims, dims);
  end if;
end $$;

-- Only the embed function (service role) writes vectors or promotes; callers only ask.
revoke execute on function
  public.chunks_to_embed(uuid, uuid, text, boolean, int),
  public.embedding_remaining(uuid, uuid, text, boolean),
  public.store_chunk_embeddings(uuid, uuid, text, uuid[], text[]),
  public.promote_embedding_model(uuid),
  public.ensure_embedding_index(int)
from public, anon, authenticated;
grant execute on function
  public.chunks_to_embed(uuid, uuid, text, boolean, int),
  public.embedding_remaining(uuid, uuid, text, boolean),
  public.store_chunk_embeddings(uuid, uuid, text, uuid[], text[]),
  public.promote_embedding_model(uuid),
  public.ensure_embedding_index(int)
to service_role;
revoke execute on function public.drop_stale_embeddings() from public, anon, authenticated;
