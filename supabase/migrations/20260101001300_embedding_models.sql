-- Embedding models per workspace. chunks.embedding holds the vector of the workspace's
-- active `embedding_model`. Choosing another model sets `pending_embedding_model`: its
-- vectors are built in chunk_embeddings while the active ones keep serving, then swapped
-- in within one transaction (the embed function does this), so search never goes without.

alter table public.workspaces
  add column pending_embedding_model text
    check (char_length(pending_embedding_model) between 1 and 200);

grant update (pending_embedding_model) on public.workspaces to authenticated;

create table public.chunk_embeddings (
  chunk_id uuid not null references public.chunks (id) on delete cascade,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  model text not null check (char_length(model) between 1 and 200),
  embedding extensions.vector not null,
  created_at timestamptz not null default now(),
  primary key (chunk_id, model)
);

create index chunk_embeddings_workspace_model_idx on public.chunk_embeddings (workspace_id, model);

alter table public.chunk_embeddings enable row level security;
-- Written by the embed function with the service role only.
revoke insert, update, delete, truncate on public.chunk_embeddings from anon, authenticated;

create policy "Members read staged embeddings" on public.chunk_embeddings
for select to authenticated
using (workspace_id in (select public.my_workspace_ids('viewer')));
