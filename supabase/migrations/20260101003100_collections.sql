-- Collections: named, coloured groups of a workspace's documents (a document may be in
-- several). Members read them, editors and owners write them; deleting a collection only
-- ends its memberships, never its documents. Conversations may be scoped to documents and
-- collections (null: the whole workspace), and chat retrieves only from that scope.

create table public.collections (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  -- A name from the app's palette, not a CSS value: each has a light and a dark shade that
  -- keep text on it readable.
  color text not null default 'gray'
    check (color in ('gray', 'red', 'orange', 'amber', 'green', 'teal', 'blue', 'indigo', 'violet', 'pink')),
  description text not null default '' check (char_length(description) <= 1000),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- Lets memberships name (collection, workspace) together, as chunks do for documents.
  unique (id, workspace_id)
);

-- One collection per name in a workspace, whatever its case: the importer's --collection
-- finds a collection by name.
create unique index collections_workspace_name_key
on public.collections (workspace_id, lower(btrim(name)));
create index collections_created_by_idx on public.collections (created_by);

create table public.collection_documents (
  collection_id uuid not null,
  document_id uuid not null,
  -- Set from the collection by the trigger below, whatever the client sends. With the two
  -- composite keys it keeps a membership inside one workspace, and lets policies and
  -- realtime filters skip a join.
  workspace_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (collection_id, document_id),
  foreign key (collection_id, workspace_id)
    references public.collections (id, workspace_id) on delete cascade,
  foreign key (document_id, workspace_id)
    references public.documents (id, workspace_id) on delete cascade
);

create index collection_documents_document_idx on public.collection_documents (document_id);
create index collection_documents_workspace_idx on public.collection_documents (workspace_id);

-- Realtime sends a deleted membership's whole row, so the library's filter on workspace_id
-- matches deletes too.
alter table public.collection_documents replica identity full;

create function public.collection_document_workspace() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  select c.workspace_id into new.workspace_id
  from public.collections c where c.id = new.collection_id;
  if new.workspace_id is null then
    raise exception 'no such collection' using errcode = '23503';
  end if;
  return new;
end $$;

create trigger collection_document_workspace
before insert on public.collection_documents
for each row execute function public.collection_document_workspace();

alter table public.collections enable row level security;
alter table public.collection_documents enable row level security;

revoke insert, update on public.collections from anon, authenticated;
grant insert (workspace_id, name, color, description) on public.collections to authenticated;
grant update (name, color, description) on public.collections to authenticated;
revoke insert, update on public.collection_documents from anon, authenticated;
-- workspace_id may be sent (the generated types ask for it) but the trigger sets it anyway.
grant insert (collection_id, document_id, workspace_id) on public.collection_documents
  to authenticated;

create policy "Members read their workspaces' collections" on public.collections
for select to authenticated
using (workspace_id in (select public.my_workspace_ids('viewer')));

create policy "Editors create collections" on public.collections
for insert to authenticated
with check (
  workspace_id in (select public.my_workspace_ids('editor'))
  and created_by = (select auth.uid())
);

create policy "Editors edit collections" on public.collections
for update to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')))
with check (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Editors delete collections" on public.collections
for delete to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Members read memberships" on public.collection_documents
for select to authenticated
using (workspace_id in (select public.my_workspace_ids('viewer')));

create policy "Editors add documents to collections" on public.collection_documents
for insert to authenticated
with check (workspace_id in (select public.my_workspace_ids('editor')));

create policy "Editors take documents out of collections" on public.collection_documents
for delete to authenticated
using (workspace_id in (select public.my_workspace_ids('editor')));

-- A conversation's scope: the documents and collections it answers from, null for the whole
-- workspace. An empty scope (its last document deleted, say) answers from nothing rather
-- than silently widening to everything.
alter table public.conversations
  add column document_ids uuid[] check (cardinality(document_ids) <= 100),
  add column collection_ids uuid[] check (cardinality(collection_ids) <= 100);

grant insert (document_ids, collection_ids) on public.conversations to authenticated;
grant update (document_ids, collection_ids) on public.conversations to authenticated;

-- Each id once, in the order first named (the order a comparison takes documents in).
create function public.first_of_each(ids uuid[]) returns uuid[]
language sql immutable
set search_path = ''
as $$
  select array(
    select u.id from unnest(ids) with ordinality u (id, k) group by u.id order by min(u.k)
  )
$$;

-- A scope names only the conversation's own workspace's documents and collections, each
-- once. Security definer: it must see every id to refuse one from elsewhere, and it only
-- answers yes or no.
create function public.check_conversation_scope() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.document_ids is not null then
    new.document_ids := public.first_of_each(new.document_ids);
    if exists (
      select 1 from unnest(new.document_ids) i
      where not exists (
        select 1 from public.documents d where d.id = i and d.workspace_id = new.workspace_id
      )
    ) then
      raise exception 'a conversation''s scope names only documents of its workspace'
        using errcode = '23503';
    end if;
  end if;
  if new.collection_ids is not null then
    new.collection_ids := public.first_of_each(new.collection_ids);
    if exists (
      select 1 from unnest(new.collection_ids) i
      where not exists (
        select 1 from public.collections c where c.id = i and c.workspace_id = new.workspace_id
      )
    ) then
      raise exception 'a conversation''s scope names only collections of its workspace'
        using errcode = '23503';
    end if;
  end if;
  return new;
end $$;

create trigger check_conversation_scope
before insert or update of document_ids, collection_ids on public.conversations
for each row execute function public.check_conversation_scope();

-- A document leaving the workspace leaves the scopes that named it (citations keep their
-- snapshots). A new version swapped in by replace_document takes over the old one's
-- collections and scopes: it is the pending row that replaces the one being deleted.
create function public.forget_document() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  successor uuid;
begin
  -- The workspace itself is going (its delete cascades here): its conversations go too, and
  -- updating a row the same command deletes would fail.
  if not exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
    return old;
  end if;
  select d.id into successor from public.documents d
  where d.replaces_id = old.id and d.status <> 'failed'
  order by d.created_at desc
  limit 1;
  if successor is not null then
    insert into public.collection_documents (collection_id, document_id)
    select cd.collection_id, successor from public.collection_documents cd
    where cd.document_id = old.id
    on conflict do nothing;
  end if;
  update public.conversations c
  set document_ids = case
    when successor is null or successor = any (c.document_ids)
      then array_remove(c.document_ids, old.id)
    else array_replace(c.document_ids, old.id, successor) end
  where c.workspace_id = old.workspace_id and old.id = any (c.document_ids);
  return old;
end $$;

create trigger forget_document
before delete on public.documents
for each row execute function public.forget_document();

create function public.forget_collection() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
    return null;
  end if;
  update public.conversations c set collection_ids = array_remove(c.collection_ids, old.id)
  where c.workspace_id = old.workspace_id and old.id = any (c.collection_ids);
  return null;
end $$;

create trigger forget_collection
after delete on public.collections
for each row execute function public.forget_collection();

-- The documents a scope stands for, as the caller sees them: the named documents and every
-- document of the named collections, in the order named. Null when nothing is named (the
-- whole workspace); empty when the names stand for no document.
create function public.scope_document_ids(
  workspace_id uuid,
  document_ids uuid[],
  collection_ids uuid[]
)
returns uuid[]
language sql stable security invoker
set search_path = ''
as $$
  select case
    when scope_document_ids.document_ids is null and scope_document_ids.collection_ids is null
      then null
    else array(
      select d.id from public.documents d
      where d.workspace_id = scope_document_ids.workspace_id
        and (d.id = any (scope_document_ids.document_ids)
          or exists (
            select 1 from public.collection_documents cd
            where cd.document_id = d.id
              and cd.collection_id = any (scope_document_ids.collection_ids)
          ))
      order by array_position(scope_document_ids.document_ids, d.id) nulls last, d.title, d.id
    )
  end
$$;

-- Whether a conversation compares: its scope stands for two documents or more. The chat
-- function then asks for (or, offline, extracts) an answer drawing on each of them.
create function public.conversation_compares(conversation_id uuid) returns boolean
language sql stable security invoker
set search_path = ''
as $$
  select coalesce(cardinality(
    public.scope_document_ids(c.workspace_id, c.document_ids, c.collection_ids)
  ) >= 2, false)
  from public.conversations c
  where c.id = conversation_compares.conversation_id
$$;

-- chat_sources, now within the conversation's scope. With two to match_count documents in
-- scope it compares: each document's best passages, taken in turn, so every document in
-- scope is heard and not only the best-scoring one. A larger scope ranks as one.
drop function public.chat_sources(uuid, text, int, extensions.vector);

create function public.chat_sources(
  workspace_id uuid,
  query text,
  match_count int default 8,
  query_embedding extensions.vector default null,
  conversation_id uuid default null
)
returns table (
  chunk_id uuid,
  document_id uuid,
  title text,
  page_start int,
  page_end int,
  char_start int,
  char_end int,
  content text
)
language plpgsql stable security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  scope uuid[];
begin
  if chat_sources.conversation_id is not null then
    select public.scope_document_ids(c.workspace_id, c.document_ids, c.collection_ids)
    into scope
    from public.conversations c
    where c.id = chat_sources.conversation_id and c.workspace_id = chat_sources.workspace_id;
    if not found then
      return;
    end if;
  end if;

  if cardinality(scope) between 2 and chat_sources.match_count then
    return query
    select s.chunk_id, s.document_id, s.title, s.page_start, s.page_end, c.char_start,
      c.char_end, c.content
    from unnest(scope) with ordinality as d (id, k)
    cross join lateral public.search_chunks(
      chat_sources.workspace_id, chat_sources.query, chat_sources.match_count,
      document_ids => array[d.id], query_embedding => chat_sources.query_embedding,
      snippets => false
    ) with ordinality s
    join public.chunks c on c.id = s.chunk_id
    order by s.ordinality, d.k
    limit chat_sources.match_count;
    return;
  end if;

  return query
  select s.chunk_id, s.document_id, s.title, s.page_start, s.page_end, c.char_start,
    c.char_end, c.content
  from public.search_chunks(
    chat_sources.workspace_id, chat_sources.query, chat_sources.match_count,
    document_ids => scope, query_embedding => chat_sources.query_embedding, snippets => false
  ) with ordinality s
  join public.chunks c on c.id = s.chunk_id
  order by s.ordinality;
end $$;

revoke execute on function public.chat_sources(uuid, text, int, extensions.vector, uuid)
  from public, anon;
grant execute on function public.chat_sources(uuid, text, int, extensions.vector, uuid)
  to authenticated, service_role;
revoke execute on function public.conversation_compares(uuid) from public, anon;
grant execute on function public.conversation_compares(uuid) to authenticated, service_role;
revoke execute on function public.scope_document_ids(uuid, uuid[], uuid[]) from public, anon;
grant execute on function public.scope_document_ids(uuid, uuid[], uuid[])
  to authenticated, service_role;
revoke execute on function public.collection_document_workspace() from public, anon, authenticated;
revoke execute on function public.check_conversation_scope() from public, anon, authenticated;
revoke execute on function public.forget_document() from public, anon, authenticated;
revoke execute on function public.forget_collection() from public, anon, authenticated;

alter publication supabase_realtime add table public.collections, public.collection_documents;
