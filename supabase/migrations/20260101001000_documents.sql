-- Documents and their chunks, the private `documents` storage bucket, and who may do what:
-- members (viewer+) read, editors and owners write, nobody else sees anything.

create extension if not exists vector with schema extensions;

create table public.documents (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  title text not null check (char_length(btrim(title)) between 1 and 500),
  -- `<workspace_id>/<document_id>/<file name>` in the documents bucket.
  storage_path text check (char_length(storage_path) <= 1024),
  mime_type text check (char_length(mime_type) <= 255),
  size_bytes bigint check (size_bytes >= 0),
  sha256 text check (sha256 ~ '^[0-9a-f]{64}$'),
  status text not null default 'queued'
    check (status in ('queued', 'processing', 'ready', 'failed')),
  stage text not null default 'uploading'
    check (stage in ('uploading', 'extracting', 'chunking', 'indexing', 'embedding', 'ready')),
  progress real not null default 0 check (progress between 0 and 1),
  error text,
  page_count int check (page_count >= 0),
  chunk_count int not null default 0 check (chunk_count >= 0),
  -- Kept for the viewer and for re-chunking without another extraction.
  extracted_text text,
  version int not null default 1 check (version >= 1),
  -- The document this one replaces once it is ready (the swap happens in one transaction).
  replaces_id uuid references public.documents (id) on delete set null,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Lets chunks name (document, workspace) together, so a chunk cannot lie about its workspace.
  unique (id, workspace_id)
);

-- Duplicate detection: one live copy of the same bytes per workspace.
create unique index documents_workspace_sha256_key
on public.documents (workspace_id, sha256) where status <> 'failed';
create index documents_workspace_id_idx on public.documents (workspace_id, created_at desc);
create index documents_replaces_id_idx on public.documents (replaces_id);
create index documents_created_by_idx on public.documents (created_by);

create trigger touch_updated_at
before update on public.documents
for each row execute function public.touch_updated_at();

create table public.chunks (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null,
  workspace_id uuid not null,
  ordinal int not null check (ordinal >= 0),
  content text not null,
  heading_path text[] not null default '{}',
  page_start int,
  page_end int,
  char_start int,
  char_end int,
  token_count int,
  -- Dimension-free so each workspace may choose its embedding model.
  embedding extensions.vector,
  created_at timestamptz not null default now(),
  foreign key (document_id, workspace_id)
    references public.documents (id, workspace_id) on delete cascade,
  unique (document_id, ordinal),
  check (page_end >= page_start),
  check (char_end >= char_start)
);

create index chunks_workspace_id_idx on public.chunks (workspace_id);

alter table public.documents enable row level security;
alter table public.chunks enable row level security;

create policy "Members read documents" on public.documents
for select to authenticated
using (workspace_id in (select public.my_workspace_ids('viewer')));

create policy "Editors add documents" on public.documents
for insert to authenticated
with check (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Editors change documents" on public.documents
for update to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')))
with check (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Editors delete documents" on public.documents
for delete to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Members read chunks" on public.chunks
for select to authenticated
using (workspace_id in (select public.my_workspace_ids('viewer')));

create policy "Editors add chunks" on public.chunks
for insert to authenticated
with check (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Editors change chunks" on public.chunks
for update to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')))
with check (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Editors delete chunks" on public.chunks
for delete to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')));

-- Processing progress shows up live in the document list.
alter publication supabase_realtime add table public.documents;

-- The private bucket for uploaded files.
insert into storage.buckets (id, name, public)
values ('documents', 'documents', false)
on conflict (id) do nothing;

-- The workspace an object path starts with, or null when the first folder is not a uuid
-- (so a malformed path is refused by the policies rather than failing a cast).
create function public.storage_workspace_id(name text) returns uuid
language sql immutable
set search_path = ''
as $$
  select case when f ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    then f::uuid end
  from (select (storage.foldername(name))[1] as f) p
$$;

create policy "Members read document files" on storage.objects
for select to authenticated
using (
  bucket_id = 'documents'
  and public.storage_workspace_id(name) in (select public.my_workspace_ids('viewer'))
);

create policy "Editors upload document files" on storage.objects
for insert to authenticated
with check (
  bucket_id = 'documents'
  and public.storage_workspace_id(name) in (select public.my_workspace_ids('editor'))
);

create policy "Editors replace document files" on storage.objects
for update to authenticated
using (
  bucket_id = 'documents'
  and public.storage_workspace_id(name) in (select public.my_workspace_ids('editor'))
)
with check (
  bucket_id = 'documents'
  and public.storage_workspace_id(name) in (select public.my_workspace_ids('editor'))
);

create policy "Editors delete document files" on storage.objects
for delete to authenticated
using (
  bucket_id = 'documents'
  and public.storage_workspace_id(name) in (select public.my_workspace_ids('editor'))
);
