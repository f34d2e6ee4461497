-- A chunk's vectors are of its text (#16). An editor may change a chunk's content, and its
-- vectors stayed: the active model's in chunks, and any staged one of a pending model,
-- which a promotion then moved in. So a model left and taken back (A, then C pending, then
-- A again, or A, none, A) kept serving A's vectors of text the chunk no longer had, and
-- nothing ever made them anew. Now a change of text drops the chunk's vectors, wherever
-- they are, and the embed function makes them again from the new text, as for a new chunk.
create function public.drop_vectors_of_changed_text() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  new.embedding := null;
  new.embedding_model := null;
  -- Editors may not write staging; this is the one change of it they cause.
  delete from public.chunk_embeddings e where e.chunk_id = new.id;
  return new;
end $$;

create trigger drop_vectors_of_changed_text
before update of content on public.chunks
for each row when (old.content is distinct from new.content)
execute function public.drop_vectors_of_changed_text();

revoke execute on function public.drop_vectors_of_changed_text() from public, anon, authenticated;
