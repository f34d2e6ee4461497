-- Okapi BM25 in plain Postgres (what hosted Supabase has: tsvector, GIN, unaccent):
-- each chunk keeps its lexemes with positions (term frequencies) and its length; per
-- workspace statistics (chunks per term, chunk count, total length) are kept exact by
-- statement-level triggers, so a bulk insert updates them once per statement.

create extension if not exists unaccent with schema extensions;

-- English stemming and stop words, accents folded; numbers, versions and identifiers stay
-- as written.
create text search configuration public.sourcebook (copy = pg_catalog.english);
alter text search configuration public.sourcebook
  alter mapping for word, hword_part with extensions.unaccent, english_stem;

-- The lexemes BM25 counts. Hyphenated words count by their parts ("COVID-19" is "covid"
-- and "19", as Lucene's standard tokenizer has it): Postgres's parser would otherwise index
-- the compound as well, or read "-19" as a negative number.
create function public.bm25_lexemes(content text) returns tsvector
language sql immutable strict parallel safe
set search_path = ''
as $$
  select to_tsvector('public.sourcebook'::regconfig,
    regexp_replace(content, '([[:alnum:]])-(?=[[:alnum:]])', '\1 ', 'g'))
$$;

-- Tokens in a tsvector: the BM25 length of a chunk.
create function public.tsvector_token_count(v tsvector) returns int
language sql immutable strict parallel safe
set search_path = ''
as $$
  select coalesce(sum(cardinality(t.positions)), 0)::int from unnest(v) t
$$;

alter table public.chunks
  add column lexemes tsvector
    generated always as (public.bm25_lexemes(content)) stored,
  add column lexeme_count int
    generated always as (
      public.tsvector_token_count(public.bm25_lexemes(content))
    ) stored;

create index chunks_lexemes_idx on public.chunks using gin (lexemes);

create table public.workspace_chunk_stats (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  chunk_count bigint not null default 0,
  total_length bigint not null default 0
);

-- How many chunks of the workspace contain each term (BM25's document frequency).
create table public.chunk_term_stats (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  term text not null,
  chunk_freq int not null,
  primary key (workspace_id, term)
);

alter table public.workspace_chunk_stats enable row level security;
alter table public.chunk_term_stats enable row level security;
revoke insert, update, delete, truncate on public.workspace_chunk_stats, public.chunk_term_stats
from anon, authenticated;

create policy "Members read chunk statistics" on public.workspace_chunk_stats
for select to authenticated
using (workspace_id in (select public.my_workspace_ids('viewer')));

create policy "Members read term statistics" on public.chunk_term_stats
for select to authenticated
using (workspace_id in (select public.my_workspace_ids('viewer')));

-- Removes the chunks of `removed` from the statistics and adds those of `added` (names of
-- transition-table queries, never request text). Updates that leave the lexemes alone,
-- such as writing an embedding, change nothing. Upserts run in key order, so concurrent
-- writers in one workspace lock term rows in the same order.
create function public.track_chunk_stats() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  changed constant text := '(select %1$s.* from old_rows o join new_rows n on n.id = o.id
    where n.lexemes is distinct from o.lexemes or n.workspace_id <> o.workspace_id)';
  removed text := case tg_op when 'DELETE' then 'old_rows' when 'UPDATE' then format(changed, 'o') end;
  added text := case tg_op when 'INSERT' then 'new_rows' when 'UPDATE' then format(changed, 'n') end;
begin
  if removed is not null then
    execute format('
      update public.workspace_chunk_stats s
      set chunk_count = s.chunk_count - g.n, total_length = s.total_length - g.len
      from (select workspace_id, count(*) as n, sum(lexeme_count) as len from %s r
            group by workspace_id) g
      where s.workspace_id = g.workspace_id', removed);
    execute format('
      update public.chunk_term_stats s set chunk_freq = s.chunk_freq - g.n
      from (select r.workspace_id, t.lexeme as term, count(*) as n
            from %s r cross join lateral unnest(r.lexemes) t group by 1, 2) g
      where s.workspace_id = g.workspace_id and s.term = g.term', removed);
    execute format('
      delete from public.chunk_term_stats s
      using (select distinct r.workspace_id, t.lexeme as term
             from %s r cross join lateral unnest(r.lexemes) t) g
      where s.workspace_id = g.workspace_id and s.term = g.term and s.chunk_freq <= 0', removed);
  end if;
  if added is not null then
    execute format('
      insert into public.workspace_chunk_stats as s (workspace_id, chunk_count, total_length)
      select workspace_id, count(*), sum(lexeme_count) from %s r
      group by workspace_id order by workspace_id
      on conflict (workspace_id) do update
      set chunk_count = s.chunk_count + excluded.chunk_count,
          total_length = s.total_length + excluded.total_length', added);
    execute format('
      insert into public.chunk_term_stats as s (workspace_id, term, chunk_freq)
      select r.workspace_id, t.lexeme, count(*)
      from %s r cross join lateral unnest(r.lexemes) t
      group by 1, 2 order by 1, 2
      on conflict (workspace_id, term) do update
      set chunk_freq = s.chunk_freq + excluded.chunk_freq', added);
  end if;
  return null;
end $$;

create trigger track_chunk_stats_insert
after insert on public.chunks
referencing new table as new_rows
for each statement execute function public.track_chunk_stats();

create trigger track_chunk_stats_update
after update on public.chunks
referencing old table as old_rows new table as new_rows
for each statement execute function public.track_chunk_stats();

create trigger track_chunk_stats_delete
after delete on public.chunks
referencing old table as old_rows
for each statement execute function public.track_chunk_stats();
