-- What the chat function needs for one turn, in as few round trips as PGlite's single
-- connection allows: chat_turn (access, rate limit, history) and chat_sources (retrieval
-- with the passages' text), both run as the caller so RLS decides what exists.

-- A new message moves its conversation to the top of the list.
create function public.touch_conversation() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.conversations set updated_at = now() where id = new.conversation_id;
  return null;
end $$;

create trigger touch_conversation
after insert on public.messages
for each row execute function public.touch_conversation();

-- Chat turns per user in the current one-minute window. Durable, unlike a counter in a
-- function process (hosted functions run many short-lived ones).
create table public.chat_rate_limits (
  user_id uuid primary key references auth.users (id) on delete cascade,
  window_start timestamptz not null,
  turns int not null
);

alter table public.chat_rate_limits enable row level security;
revoke all on public.chat_rate_limits from anon, authenticated;

-- Counts a turn for the caller; answers 0 when allowed, else the seconds until the window
-- ends. Calling it directly only ever limits oneself.
create function public.take_chat_turn(max_per_minute int) returns int
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  started timestamptz;
  taken int;
begin
  insert into public.chat_rate_limits as r (user_id, window_start, turns)
  values ((select auth.uid()), now(), 1)
  on conflict (user_id) do update set
    window_start = case when r.window_start <= now() - interval '1 minute' then now()
                        else r.window_start end,
    turns = case when r.window_start <= now() - interval '1 minute' then 1 else r.turns + 1 end
  returning r.window_start, r.turns into started, taken;
  if taken <= max_per_minute then
    return 0;
  end if;
  return greatest(1, ceil(extract(epoch from started + interval '1 minute' - now())))::int;
end $$;

-- One turn's context, as jsonb with `status`:
--   'unauthenticated' (no user), 'not_found' (no conversation the caller can see),
--   'bad_regenerate' (not the conversation's latest answer), 'rate_limited' (+ retry_after),
--   'ok' with workspace_id, chat_model, embedding_model, history (oldest first, finished
--   messages only) and, when regenerating, the question and its user_message_id.
create function public.chat_turn(
  conversation_id uuid,
  regenerate uuid default null,
  max_per_minute int default 10,
  history_limit int default 10
)
returns jsonb
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  uid constant uuid := auth.uid();
  conv record;
  answer_at timestamptz;
  question_id uuid;
  question text;
  question_at timestamptz;
  wait int;
begin
  if uid is null then
    return jsonb_build_object('status', 'unauthenticated');
  end if;
  select c.id, c.workspace_id, w.chat_model, w.embedding_model into conv
  from public.conversations c
  join public.workspaces w on w.id = c.workspace_id
  where c.id = chat_turn.conversation_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;

  if regenerate is not null then
    select m.created_at into answer_at from public.messages m
    where m.id = regenerate and m.conversation_id = conv.id and m.role = 'assistant'
      and not exists (
        select 1 from public.messages later
        where later.conversation_id = conv.id and later.created_at > m.created_at
      );
    select m.id, m.content, m.created_at into question_id, question, question_at
    from public.messages m
    where m.conversation_id = conv.id and m.role = 'user' and m.created_at < answer_at
    order by m.created_at desc
    limit 1;
    if question_id is null then
      return jsonb_build_object('status', 'bad_regenerate');
    end if;
  end if;

  wait := public.take_chat_turn(max_per_minute);
  if wait > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', wait);
  end if;

  return jsonb_build_object(
    'status', 'ok',
    'user_id', uid,
    'workspace_id', conv.workspace_id,
    'chat_model', conv.chat_model,
    'embedding_model', conv.embedding_model,
    'question', question,
    'user_message_id', question_id,
    'history', coalesce((
      select jsonb_agg(jsonb_build_object('role', h.role, 'content', h.content)
                       order by h.created_at, h.id)
      from (
        select m.id, m.role, m.content, m.created_at from public.messages m
        where m.conversation_id = conv.id and m.status in ('complete', 'stopped')
          and m.content <> '' and (question_at is null or m.created_at < question_at)
        order by m.created_at desc, m.id desc
        limit history_limit
      ) h
    ), '[]'::jsonb)
  );
end $$;

-- The passages for an answer: search_chunks' ranking (the same retrieval as the search
-- function, without snippets) with each chunk's text and place in its document.
create function public.chat_sources(
  workspace_id uuid,
  query text,
  match_count int default 8,
  query_embedding extensions.vector default null
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
language sql stable security invoker
set search_path = ''
as $$
  select s.chunk_id, s.document_id, s.title, s.page_start, s.page_end, c.char_start,
    c.char_end, c.content
  from public.search_chunks(
    chat_sources.workspace_id, chat_sources.query, chat_sources.match_count,
    query_embedding => chat_sources.query_embedding, snippets => false
  ) with ordinality s
  join public.chunks c on c.id = s.chunk_id
  order by s.ordinality
$$;

revoke execute on function public.take_chat_turn(int) from public, anon;
revoke execute on function public.chat_turn(uuid, uuid, int, int) from public, anon;
revoke execute on function public.chat_sources(uuid, text, int, extensions.vector)
  from public, anon;
grant execute on function public.take_chat_turn(int) to authenticated, service_role;
grant execute on function public.chat_turn(uuid, uuid, int, int) to authenticated, service_role;
grant execute on function public.chat_sources(uuid, text, int, extensions.vector)
  to authenticated, service_role;
revoke execute on function public.touch_conversation() from public, anon, authenticated;
