-- How far a workspace's vectors have come, for Settings (#16). Settings counted only the
-- vectors already in chunks, so while a promotion's staged vectors were moving in it showed
-- them as missing and said search was lexical for those chunks, though search reads them
-- from staging (vector_top, 20260101007300). One call now reads the models and counts
-- their vectors in one snapshot, as the caller (RLS):
--   embedding_model, pending_embedding_model  the workspace's, which the counts are of;
--   chunks      the workspace's chunks;
--   searchable  those search reads a vector of the active model for: in chunks, or staged
--               and not yet moved in (never both counted for one chunk, as vector_top);
--   moving      of those, the ones still staged, which upkeep (settle_embeddings) moves in;
--   pending     while another model is being built, the chunks with its vector staged.
create function public.embedding_progress(workspace_id uuid)
returns table (
  embedding_model text, pending_embedding_model text,
  chunks int, searchable int, moving int, pending int
)
language sql stable
set search_path = ''
as $$
  with models as (
    select w.embedding_model as active, w.pending_embedding_model as pending
    from public.workspaces w where w.id = embedding_progress.workspace_id
  ), counts as (
    select m.active, m.pending as pending_model,
      (select count(*)::int from public.chunks c
       where c.workspace_id = embedding_progress.workspace_id) as chunks,
      (select count(*)::int from public.chunks c
       where c.workspace_id = embedding_progress.workspace_id
         and c.embedding is not null and c.embedding_model = m.active) as placed,
      (select count(*)::int from public.chunk_embeddings e
       join public.chunks c on c.id = e.chunk_id
       where e.workspace_id = embedding_progress.workspace_id and e.model = m.active
         and c.embedding_model is distinct from m.active) as moving,
      (select count(*)::int from public.chunk_embeddings e
       where e.workspace_id = embedding_progress.workspace_id
         and e.model = m.pending) as pending
    from models m
  )
  select active, pending_model, chunks, placed + moving, moving, pending from counts
$$;
