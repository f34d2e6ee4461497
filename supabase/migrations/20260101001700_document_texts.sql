-- A document's extracted text in its own table, out of the supabase_realtime publication:
-- in the documents row, every update (each progress step, the final 'ready', a rename)
-- shipped up to megabytes of text to every member watching the library. Kept for the viewer
-- and for re-chunking without another extraction. Same access as chunks: members read,
-- editors and owners write.

create table public.document_texts (
  document_id uuid primary key,
  workspace_id uuid not null,
  text text not null,
  -- Names (document, workspace) together, so a text cannot lie about its workspace.
  foreign key (document_id, workspace_id)
    references public.documents (id, workspace_id) on delete cascade
);

create index document_texts_workspace_id_idx on public.document_texts (workspace_id);

insert into public.document_texts (document_id, workspace_id, text)
select d.id, d.workspace_id, d.extracted_text
from public.documents d
where d.extracted_text is not null;

alter table public.documents drop column extracted_text;

alter table public.document_texts enable row level security;

create policy "Members read document texts" on public.document_texts
for select to authenticated
using (workspace_id in (select public.my_workspace_ids('viewer')));

create policy "Editors add document texts" on public.document_texts
for insert to authenticated
with check (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Editors change document texts" on public.document_texts
for update to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')))
with check (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Editors delete document texts" on public.document_texts
for delete to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')));
