-- A passage that starts inside a long table, below its header row, has that header row as the
-- last entry of its heading path, after the table's title or innermost heading
-- (chunk/chunk-document.ts): "Consolidated Balance Sheets", "| | 2019 | 2018 |". Its content
-- stays the exact slice of the document's text that citations and highlights point at, so
-- neither is in it; but what the table is and which column a figure sits in is what a search
-- for "2019 revenue" or "balance sheet inventories" needs. The lexemes (and the BM25 length)
-- of such a chunk are now those of its title, header row and content, as a document's title
-- is indexed beside its passages. Every other chunk (prose, a table's first passage, any
-- text without tables) indexes exactly as before.

-- The text a chunk is indexed by: when its heading path ends with a table's header row (a
-- GFM table row, `|` first and last), the entry before it (the table's title or heading) and
-- that row, then its content; else its content.
create function public.chunk_index_text(heading_path text[], content text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case
    when heading_path[cardinality(heading_path)] ~ '^\|[^\n]*\|$'
      then concat_ws(E'\n', heading_path[cardinality(heading_path) - 1],
                     heading_path[cardinality(heading_path)], content)
    else content
  end
$$;

-- The generated columns are made again with the new expression (Postgres 15, which hosted
-- projects and `DATABASE_URL` servers may run, cannot change one in place): one rewrite of the
-- table computes every stored chunk's lexemes anew. Dropping a column drops its indexes, so
-- what earlier migrations gave them is given again: storage main for the lexemes, set in the
-- same statement so the rewrite already stores them so (20260101002200_search_peaks.sql), the
-- GIN index without a pending list, and chunks_workspace_length_idx
-- (20260101001500_search_maxscore_filters.sql).
-- On the development library (39 filings, 10,147 chunks, PGlite) the rewrite took 35 s and
-- the recount below 3 s, on two cores shared with other work.
alter table public.chunks
  drop column lexemes,
  drop column lexeme_count,
  add column lexemes tsvector
    generated always as (public.bm25_lexemes(public.chunk_index_text(heading_path, content)))
    stored,
  add column lexeme_count int
    generated always as (
      public.tsvector_token_count(
        public.bm25_lexemes(public.chunk_index_text(heading_path, content))))
    stored,
  alter column lexemes set storage main;

create index chunks_lexemes_idx on public.chunks using gin (lexemes) with (fastupdate = off);
create index chunks_workspace_length_idx on public.chunks (workspace_id, lexeme_count);

-- A rewrite fires no trigger: the term statistics are counted again from the new lexemes,
-- exactly as track_chunk_stats would have kept them, peaks as
-- 20260101002200_search_peaks.sql first computed them.
delete from public.chunk_term_stats;
delete from public.workspace_chunk_stats;

insert into public.workspace_chunk_stats (workspace_id, chunk_count, total_length)
select workspace_id, count(*), sum(lexeme_count)
from public.chunks
group by workspace_id;

insert into public.chunk_term_stats (workspace_id, term, chunk_freq, peaks)
select workspace_id, term, sum(n), array_agg(array[tf, len] order by tf)
  filter (where beaten_at is null or len < beaten_at)
from (
  select p.*, min(len) over (partition by workspace_id, term order by tf desc
                             rows between unbounded preceding and 1 preceding) as beaten_at
  from (
    select c.workspace_id, t.lexeme as term, cardinality(t.positions) as tf,
      min(c.lexeme_count) as len, count(*) as n
    from public.chunks c cross join lateral unnest(c.lexemes) t
    group by 1, 2, 3
  ) p
) r
group by workspace_id, term;
