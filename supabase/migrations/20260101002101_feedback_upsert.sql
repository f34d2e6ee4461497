-- Feedback is saved with supabase-js upsert (thumbs up, then a comment, then thumbs down),
-- and PostgREST's ON CONFLICT DO UPDATE sets every column it was sent, the key included:
-- without update on the key columns, every upsert is denied. The update policy then checks
-- what an insert would, so a row cannot be moved onto an answer its author cannot see.
grant update (message_id, user_id) on public.message_feedback to authenticated;

drop policy "Everyone changes their own feedback" on public.message_feedback;

create policy "Everyone changes their own feedback" on public.message_feedback
for update to authenticated
using (user_id = (select auth.uid()))
with check (
  user_id = (select auth.uid())
  and exists (
    select 1 from public.messages m
    where m.id = message_id and m.role = 'assistant' and public.can_see_conversation(m.conversation_id)
  )
);
