-- Indexes behind the invitation policies and foreign keys: owners list a workspace's
-- invitations (accepted ones too), and deleting a profile nulls its invitations' links.
create index workspace_invitations_workspace_id_idx
on public.workspace_invitations (workspace_id, created_at desc);
create index workspace_invitations_invited_by_idx on public.workspace_invitations (invited_by);
create index workspace_invitations_accepted_by_idx on public.workspace_invitations (accepted_by);
