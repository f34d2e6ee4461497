-- How a workspace reranks the passages search and chat retrieve, chosen by an owner in
-- Settings → AI models: 'off', 'judge' (the workspace's chat model orders them) or 'model'
-- (the server's rerank model). Owners write it through the existing update policy; members
-- read it with the workspace. The functions fall back to 'off' whenever the choice cannot run.

alter table public.workspaces
  add column reranking text not null default 'off'
    constraint workspaces_reranking_check check (reranking in ('off', 'judge', 'model'));

grant update (reranking) on public.workspaces to authenticated;
