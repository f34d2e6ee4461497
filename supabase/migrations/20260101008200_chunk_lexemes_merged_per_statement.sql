-- Chunk lexemes go into their GIN index in bulk, once per statement (issue #17). With
-- fastupdate off (20260101002200_search_peaks.sql) every row written put each of its ~150
-- lexemes into the index one at a time, rewriting that lexeme's posting list each time: some
-- 0.6-1 ms of a chunk insert's ~2.5 ms on PGlite (bench/chunk-insert-profile.ts). Every
-- non-HOT update paid it again, an embedding's among them (the partial index on unembedded
-- chunks makes none HOT).
--
-- New entries now go to the index's pending list, and the statement that wrote them merges
-- the list into the index before it ends: grouped by lexeme, each posting list is written once
-- per statement. Between statements the list is empty again, so searches, which read the whole
-- list through, still never find one to read (the reason fastupdate was turned off), with
-- autovacuum or without (PGlite).
alter index public.chunks_lexemes_idx set (fastupdate = on);

-- Owned by the migrations' role, which owns the index: gin_clean_pending_list asks for its
-- owner. An empty list (a delete, a HOT update) costs a read of the index's metapage.
create function public.merge_chunk_lexemes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform pg_catalog.gin_clean_pending_list('public.chunks_lexemes_idx'::regclass);
  return null;
end $$;

revoke execute on function public.merge_chunk_lexemes() from public, anon, authenticated;

create trigger merge_chunk_lexemes
after insert or update on public.chunks
for each statement execute function public.merge_chunk_lexemes();
