-- Conversations and their messages. A conversation is private to its creator or shared
-- with the workspace; members read shared ones, everyone reads their own. Messages are
-- written only by the chat function (service role), so nobody can forge an answer or its
-- citations; people rate answers in message_feedback.

create table public.conversations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  title text not null default 'New conversation'
    check (char_length(btrim(title)) between 1 and 200),
  visibility text not null default 'private' check (visibility in ('private', 'shared')),
  created_by uuid not null default auth.uid() references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index conversations_workspace_idx on public.conversations (workspace_id, updated_at desc);
create index conversations_created_by_idx on public.conversations (created_by);

create trigger touch_updated_at
before update on public.conversations
for each row execute function public.touch_updated_at();

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  -- Copied from the conversation (checked by the trigger below) so policies and realtime
  -- filters need no join.
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  role text not null check (role in ('user', 'assistant')),
  content text not null default '' check (char_length(content) <= 100000),
  -- Snapshots: { n, chunk_id, document_id, title, page_start, page_end, char_start,
  -- char_end, quote, supported }, kept as they were when the answer was given.
  citations jsonb not null default '[]' check (jsonb_typeof(citations) = 'array'),
  status text not null default 'complete'
    check (status in ('streaming', 'complete', 'stopped', 'failed')),
  error text,
  model text,
  usage jsonb,
  extractive boolean not null default false,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);

create index messages_conversation_idx on public.messages (conversation_id, created_at, id);
create index messages_workspace_idx on public.messages (workspace_id);

create function public.message_workspace() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  select c.workspace_id into strict new.workspace_id
  from public.conversations c where c.id = new.conversation_id;
  return new;
end $$;

create trigger message_workspace
before insert or update of conversation_id on public.messages
for each row execute function public.message_workspace();

create table public.message_feedback (
  message_id uuid not null references public.messages (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  rating smallint not null check (rating in (-1, 1)),
  comment text check (char_length(comment) <= 2000),
  created_at timestamptz not null default now(),
  primary key (message_id, user_id)
);

-- Who may see a conversation: its creator while they are a member, or any member when
-- it is shared. Security definer so message and realtime policies need not repeat it.
create function public.can_see_conversation(conversation_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
    join public.workspace_members m
      on m.workspace_id = c.workspace_id and m.user_id = (select auth.uid())
    where c.id = can_see_conversation.conversation_id
      and (c.visibility = 'shared' or c.created_by = (select auth.uid()))
  )
$$;

alter table public.conversations enable row level security;
alter table public.messages enable row level security;
alter table public.message_feedback enable row level security;

revoke insert, update on public.conversations from anon, authenticated;
grant insert (workspace_id, title, visibility) on public.conversations to authenticated;
grant update (title, visibility) on public.conversations to authenticated;
revoke insert, update, delete, truncate on public.messages from anon, authenticated;
revoke update on public.message_feedback from anon, authenticated;
grant update (rating, comment) on public.message_feedback to authenticated;

create policy "Members read shared and their own conversations" on public.conversations
for select to authenticated
using (
  workspace_id in (select public.my_workspace_ids('viewer'))
  and (visibility = 'shared' or created_by = (select auth.uid()))
);

create policy "Members start conversations" on public.conversations
for insert to authenticated
with check (
  workspace_id in (select public.my_workspace_ids('viewer'))
  and created_by = (select auth.uid())
);

create policy "Creators rename and share their conversations" on public.conversations
for update to authenticated
using (created_by = (select auth.uid()) and workspace_id in (select public.my_workspace_ids('viewer')))
with check (created_by = (select auth.uid()));

create policy "Creators delete their conversations" on public.conversations
for delete to authenticated
using (created_by = (select auth.uid()));

create policy "Members read messages of conversations they see" on public.messages
for select to authenticated
using (public.can_see_conversation(conversation_id));

create policy "Everyone reads their own feedback" on public.message_feedback
for select to authenticated
using (user_id = (select auth.uid()));

create policy "Members rate answers they see" on public.message_feedback
for insert to authenticated
with check (
  user_id = (select auth.uid())
  and exists (
    select 1 from public.messages m
    where m.id = message_id and m.role = 'assistant' and public.can_see_conversation(m.conversation_id)
  )
);

create policy "Everyone changes their own feedback" on public.message_feedback
for update to authenticated
using (user_id = (select auth.uid()))
with check (user_id = (select auth.uid()));

create policy "Everyone withdraws their own feedback" on public.message_feedback
for delete to authenticated
using (user_id = (select auth.uid()));

-- The conversation's private realtime channel `conversation:<id>`: token deltas, presence
-- and typing, for the people who can see the conversation.
create function public.conversation_topic_id(topic text) returns uuid
language sql immutable
set search_path = ''
as $$
  select case when topic ~* '^conversation:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    then substr(topic, 14)::uuid end
$$;

create policy "Viewers of a conversation receive its channel" on realtime.messages
for select to authenticated
using (public.can_see_conversation(public.conversation_topic_id(realtime.topic())));

create policy "Viewers of a conversation send presence and typing" on realtime.messages
for insert to authenticated
with check (
  extension in ('presence', 'broadcast')
  and public.can_see_conversation(public.conversation_topic_id(realtime.topic()))
);

alter publication supabase_realtime add table public.conversations, public.messages;
