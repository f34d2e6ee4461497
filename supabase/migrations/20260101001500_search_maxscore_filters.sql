-- search_chunks, second version: the GIN index actually used, iterative MaxScore, only ready
-- documents, a type filter, HNSW for the vector path, snippets from a window at the match.
--
-- Why security definer: under RLS, Postgres may not evaluate a query's own conditions before
-- the policies' unless their operators are leakproof, and tsvector's @@ is not. So as the
-- caller, `lexemes @@ query` could never use the GIN index: every search read every chunk
-- of the workspace (1.5 s at 100,000 chunks). search_chunks now runs as its owner and
-- checks membership itself, once, before anything is read; its helpers are not callable
-- through the API.
--
-- BM25 is unchanged (see 20260101001200_search_chunks.sql for the formula and why k1 = 1.2,
-- b = 0.6), and so is the top it returns, exactly. What changed is how few chunks are scored:
--   A term adds at most its bound to a chunk's score (below). A first pool comes
--   from the chunks holding two of the three rarest terms. Then, rarest term
--   first, each round scores the chunks that hold that term (and not the two rarest, scored
--   already), and enough of the commoner ones for their bounds to reach the pool's last
--   score (bm25_enough writes that as a tsquery, so the GIN index skips the rest without
--   reading them). Once the terms left could not reach the pool's last score even together,
--   no unscored chunk can enter the pool. At 100,000 chunks a query scores about a thousand
--   chunks instead of tens of thousands.

-- A document's short kind, the values the type filter takes: pdf, docx, html, md, txt, csv
-- (null for anything else).
create function public.document_kind(mime_type text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case split_part(lower(btrim(mime_type)), ';', 1)
    when 'application/pdf' then 'pdf'
    when 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' then 'docx'
    when 'text/html' then 'html'
    when 'application/xhtml+xml' then 'html'
    when 'text/markdown' then 'md'
    when 'text/plain' then 'txt'
    when 'text/csv' then 'csv'
  end
$$;

-- Documents that are not ready are few: their chunks are kept out of search (a new version
-- being indexed must not show next to the version it replaces).
create index documents_not_ready_idx on public.documents (workspace_id)
where status <> 'ready';

-- A term's bound. idf * (k1 + 1), what it would add at an infinite term frequency, is loose
-- (typical chunks get 1 to 1.5 times idf from it), so the rounds would rarely prune. A
-- term's score grows with its frequency in the chunk and falls with the chunk's length, so
-- the largest it can give any chunk is the score at its highest
-- frequency in the workspace (chunk_term_stats.max_tf) in the shortest chunk
-- (workspace_chunk_stats.min_length). max_tf is a running maximum: raised as chunks come,
-- never lowered when they go (that would mean reading every chunk holding the term), so it
-- stays a safe bound and the top stays exact. min_length is kept exact: when the shortest
-- chunk goes, the next is one index lookup away.
alter table public.chunk_term_stats add column max_tf int;
-- Only chunks with lexemes count: any chunk holding a term is at least one token long.
alter table public.workspace_chunk_stats add column min_length int;

update public.chunk_term_stats s set max_tf = g.max_tf
from (select c.workspace_id, t.lexeme as term, max(cardinality(t.positions)) as max_tf
      from public.chunks c cross join lateral unnest(c.lexemes) t group by 1, 2) g
where s.workspace_id = g.workspace_id and s.term = g.term;

update public.workspace_chunk_stats s set min_length = g.min_length
from (select workspace_id, min(lexeme_count) as min_length from public.chunks
      where lexeme_count > 0 group by 1) g
where s.workspace_id = g.workspace_id;

alter table public.chunk_term_stats alter column max_tf set not null;

-- Serves what the workspace index served, and finds a workspace's shortest chunk.
create index chunks_workspace_length_idx on public.chunks (workspace_id, lexeme_count);
drop index public.chunks_workspace_id_idx;

-- As in 20260101001100_bm25.sql, and the added chunks also raise max_tf and lower min_length
-- (least and greatest skip nulls); when the removed ones held the shortest, it is looked up
-- again.
create or replace function public.track_chunk_stats() returns trigger
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
      set chunk_count = s.chunk_count - g.n, total_length = s.total_length - g.len,
        min_length = case when g.shortest <= s.min_length then (
          select min(c.lexeme_count) from public.chunks c
          where c.workspace_id = s.workspace_id and c.lexeme_count > 0) else s.min_length end
      from (select workspace_id, count(*) as n, sum(lexeme_count) as len,
              min(lexeme_count) filter (where lexeme_count > 0) as shortest
            from %s r group by workspace_id) g
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
      insert into public.workspace_chunk_stats as s
        (workspace_id, chunk_count, total_length, min_length)
      select workspace_id, count(*), sum(lexeme_count),
        min(lexeme_count) filter (where lexeme_count > 0) from %s r
      group by workspace_id order by workspace_id
      on conflict (workspace_id) do update
      set chunk_count = s.chunk_count + excluded.chunk_count,
          total_length = s.total_length + excluded.total_length,
          min_length = least(s.min_length, excluded.min_length)', added);
    execute format('
      insert into public.chunk_term_stats as s (workspace_id, term, chunk_freq, max_tf)
      select r.workspace_id, t.lexeme, count(*), max(cardinality(t.positions))
      from %s r cross join lateral unnest(r.lexemes) t
      group by 1, 2 order by 1, 2
      on conflict (workspace_id, term) do update
      set chunk_freq = s.chunk_freq + excluded.chunk_freq,
          max_tf = greatest(s.max_tf, excluded.max_tf)', added);
  end if;
  return null;
end $$;

drop function public.bm25_top(uuid, tsquery, text[], float8[], float8, real, real, uuid[], int);

-- The chunks matching `tsq` that pass the filters, each scored by BM25 over every query term.
-- A term's idf is read by its place in `terms` (distinct): a join built a hash table for
-- every scored chunk, a sixth of bm25_top's time at 100,000 chunks.
create function public.bm25_top(
  workspace_id uuid, tsq tsquery, terms text[], idfs float8[], avglen float8, k1 real,
  b real, document_ids uuid[], hidden_ids uuid[], types text[], lim int
)
returns table (id uuid, bm25 float8)
language sql stable
set search_path = ''
as $$
  select c.id, (
    select sum(idfs[array_position(terms, t.lexeme)] * cardinality(t.positions) * (k1 + 1)
               / (cardinality(t.positions) + k1 * (1 - b + b * c.lexeme_count / avglen)))
    -- Only the query's lexemes, with their positions: weight them A, keep the A's.
    from unnest(ts_filter(setweight(c.lexemes, 'A', terms), '{a}')) t
  ) as bm25
  from public.chunks c
  where c.workspace_id = bm25_top.workspace_id and c.lexemes @@ tsq
    and (bm25_top.document_ids is null or c.document_id = any (bm25_top.document_ids))
    and (hidden_ids is null or c.document_id <> all (hidden_ids))
    and (types is null or exists (
      select from public.documents d
      where d.id = c.document_id and public.document_kind(d.mime_type) = any (types)))
  order by 2 desc, c.id
  limit lim
$$;

-- A tsquery matching all of the lexemes.
create function public.all_lexemes(lexemes text[]) returns tsquery
language sql immutable strict parallel safe
set search_path = ''
as $$
  select string_agg('''' || replace(replace(l, '\', '\\'), '''', '''''') || '''', ' & ')::tsquery
  from unnest(lexemes) l
$$;

-- A tsquery every chunk matches that could gain `need` from `terms`, each adding at most its
-- `bound` (largest first); null when that asks for nothing. It is an OR of the ways there:
-- terms taken in order until the sum reaches `need` (a chunk that could gain `need` holds
-- all the terms of one way). When the ways are too many, the commonest terms are left out
-- and counted as present at their bound: a looser demand, still met by every such chunk.
create function public.bm25_enough(terms text[], bounds float8[], need float8)
returns tsquery
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  cap constant int := 16;
  n int := coalesce(cardinality(terms), 0);
  quoted text[] := array(
    select '''' || replace(replace(t, '\', '\\'), '''', '''''') || '''' from unnest(terms) t);
  rest float8[];
  chosen int[];
  ways text[];
  total float8;
  i int;
begin
  -- Past eight terms the ways multiply: the commonest beyond them count as present.
  while n > 8 loop
    need := need - bounds[n];
    n := n - 1;
  end loop;
  loop
    if need <= 0 then
      return null;
    end if;
    rest := array_fill(0::float8, array[n + 1]);
    for j in reverse n .. 1 loop
      rest[j] := rest[j + 1] + bounds[j];
    end loop;
    if n = 0 or rest[1] < need then
      return '!nothing & nothing'::tsquery;
    end if;
    -- Depth first over the ways, never down a branch that cannot reach `need`.
    chosen := '{}'; ways := '{}'; total := 0; i := 1;
    loop
      if i <= n and total + rest[i] >= need then
        if total + bounds[i] >= need then
          ways := ways || array_to_string(quoted[i:i] || array(
            select quoted[c] from unnest(chosen) c), ' & ');
          exit when cardinality(ways) > cap;
          i := i + 1;
        else
          chosen := chosen || i;
          total := total + bounds[i];
          i := i + 1;
        end if;
      else
        exit when cardinality(chosen) = 0;
        i := chosen[cardinality(chosen)];
        total := total - bounds[i];
        chosen := chosen[1:cardinality(chosen) - 1];
        i := i + 1;
      end if;
    end loop;
    if cardinality(ways) <= cap then
      return ('(' || array_to_string(ways, ') | (') || ')')::tsquery;
    end if;
    -- Too many: leave the commonest term out, counted as present.
    need := need - bounds[n];
    n := n - 1;
  end loop;
end $$;

drop function public.search_chunks(
  uuid, text, int, uuid[], real, real, extensions.vector, real, real, int, boolean
);

create function public.search_chunks(
  workspace_id uuid,
  query text,
  match_count int default 10,
  document_ids uuid[] default null,
  k1 real default 1.2,
  b real default 0.6,
  query_embedding extensions.vector default null,
  lexical_weight real default 1,
  semantic_weight real default 1,
  rrf_k int default 60,
  snippets boolean default true,
  -- Document kinds to keep (see document_kind): pdf, docx, html, md, txt, csv.
  types text[] default null
)
returns table (
  chunk_id uuid,
  document_id uuid,
  title text,
  ordinal int,
  page_start int,
  page_end int,
  score double precision,
  bm25 double precision,
  lexical_rank int,
  semantic_rank int,
  similarity double precision,
  snippet text
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  ws constant uuid := search_chunks.workspace_id;
  -- Fusion looks deeper than the page it returns.
  pool constant int := case when query_embedding is null then match_count
                            else greatest(match_count * 4, 100) end;
  -- The query's distinct lexemes, normalised as the chunks' are.
  terms constant text[] :=
    array(select t.lexeme from unnest(public.bm25_lexemes(coalesce(query, ''))) t);
  tsq constant tsquery := public.any_lexeme(terms);
  hidden uuid[];
  n float8;
  avglen float8;
  shortest int;
  -- The known terms, rarest first, with their idfs.
  known text[];
  idfs float8[];
  bounds float8[];
  theta float8;
  round_query tsquery;
  enough tsquery;
  top_ids uuid[] := '{}';
  top_scores float8[] := '{}';
  sem_ids uuid[];
  sem_sims float8[];
begin
  if match_count is null or match_count not between 1 and 1000 then
    raise exception 'match_count must be between 1 and 1000' using errcode = '22023';
  end if;
  if k1 is null or k1 < 0 or b is null or b not between 0 and 1 then
    raise exception 'k1 must be >= 0 and b between 0 and 1' using errcode = '22023';
  end if;
  if rrf_k is null or rrf_k < 1 then
    raise exception 'rrf_k must be >= 1' using errcode = '22023';
  end if;
  -- What RLS would have decided: members see the workspace's chunks, nobody else any.
  if not (public.has_role(ws, 'viewer') or (select auth.role()) = 'service_role') then
    return;
  end if;

  select array_agg(d.id) into hidden
  from public.documents d
  where d.workspace_id = ws and d.status <> 'ready';
  select s.chunk_count, s.total_length::float8 / s.chunk_count, s.min_length
  into n, avglen, shortest
  from public.workspace_chunk_stats s
  where s.workspace_id = ws and s.chunk_count > 0;
  -- Each term's bound, the most it adds to any chunk's score (its highest frequency in the
  -- shortest chunk): the rounds below skip any chunk whose terms could not add up to the
  -- pool's last score.
  select array_agg(t.term order by t.chunk_freq, t.term),
    array_agg(t.idf order by t.chunk_freq, t.term),
    array_agg(t.idf * t.max_tf * (k1 + 1)
              / (t.max_tf + k1 * (1 - b + b * shortest / avglen))
              order by t.chunk_freq, t.term)
  into known, idfs, bounds
  from (
    select ts.term, ts.chunk_freq, ts.max_tf,
      ln(1 + (n - ts.chunk_freq + 0.5) / (ts.chunk_freq + 0.5)) as idf
    from public.chunk_term_stats ts
    where ts.workspace_id = ws and ts.term = any (terms)
  ) t;

  -- A first pool from the chunks holding two of the three rarest terms: few, cheap to find,
  -- and they tend to score high, so the rounds below start with a high bar.
  if cardinality(known) >= 2 then
    select coalesce(array_agg(r.id order by r.bm25 desc, r.id), '{}'),
      coalesce(array_agg(r.bm25 order by r.bm25 desc, r.id), '{}')
    into top_ids, top_scores
    from public.bm25_top(
      ws,
      case when cardinality(known) = 2 then public.all_lexemes(known)
           else public.all_lexemes(known[1:2]) || public.all_lexemes(array[known[1], known[3]])
                || public.all_lexemes(known[2:3]) end,
      known, idfs, avglen, k1, b, document_ids, hidden, types, pool) r;
  end if;
  for i in 1 .. coalesce(cardinality(known), 0) loop
    theta := case when cardinality(top_ids) = pool then top_scores[pool] * (1 - 1e-9) else 0 end;
    -- The terms left could not reach the pool even together: no unscored chunk can.
    exit when theta > (select sum(x) from unnest(bounds[i:]) x);
    -- This round: chunks with term i and enough of the commoner ones to reach the pool; the
    -- GIN index finds them, no other row is read.
    round_query := public.any_lexeme(known[i:i]);
    enough := public.bm25_enough(known[i + 1:], bounds[i + 1:], theta - bounds[i]);
    if enough is not null then
      round_query := round_query && enough;
    end if;
    -- Chunks holding one of the two rarest terms (scored in rounds 1 and 2; short lists) are
    -- skipped. Those holding another rarer term cost more to rule out in the index than to
    -- score again, and the union drops the repeats (same chunk, same score).
    if i > 1 then
      round_query := round_query && !! public.any_lexeme(known[1:least(i - 1, 2)]);
    end if;
    select coalesce(array_agg(m.id order by m.bm25 desc, m.id), '{}'),
      coalesce(array_agg(m.bm25 order by m.bm25 desc, m.id), '{}')
    into top_ids, top_scores
    from (
      select p.id, p.bm25 from unnest(top_ids, top_scores) p (id, bm25)
      union
      select r.id, r.bm25
      from public.bm25_top(ws, round_query, known, idfs, avglen, k1, b, document_ids, hidden,
                           types, pool) r
      order by 2 desc, 1
      limit pool
    ) m;
  end loop;

  if query_embedding is not null then
    select array_agg(v.id order by v.similarity desc, v.id),
      array_agg(v.similarity order by v.similarity desc, v.id)
    into sem_ids, sem_sims
    from public.vector_top(ws, query_embedding, document_ids, hidden, types, pool) v;
  end if;

  return query
  with lexical as (
    select l.id, l.bm25, l.rank::int as rank
    from unnest(top_ids, top_scores) with ordinality as l (id, bm25, rank)
  ),
  semantic as (
    select s.id, s.similarity, s.rank::int as rank
    from unnest(sem_ids, sem_sims) with ordinality as s (id, similarity, rank)
  ),
  fused as (
    select coalesce(l.id, s.id) as id, l.bm25, l.rank as lexical_rank, s.rank as semantic_rank,
      s.similarity,
      case when query_embedding is null then l.bm25
           else coalesce(lexical_weight / (rrf_k + l.rank), 0)
              + coalesce(semantic_weight / (rrf_k + s.rank), 0) end as score
    from lexical l full join semantic s on s.id = l.id
  ),
  page as (
    select f.*, c.document_id, c.ordinal, c.page_start, c.page_end, c.content
    from fused f
    join public.chunks c on c.id = f.id
    order by f.score desc, f.id
    limit match_count
  )
  select p.id, p.document_id, d.title, p.ordinal, p.page_start, p.page_end, p.score, p.bm25,
    p.lexical_rank, p.semantic_rank, p.similarity,
    case when snippets then public.search_snippet(p.content, terms, tsq) end
  from page p
  join public.documents d on d.id = p.document_id
  order by p.score desc, p.id;
end $$;

-- A snippet with the query's terms in <mark>: ts_headline over about 400 characters from
-- just before the first place a query lexeme appears as written (stems are mostly prefixes
-- of their words; when none is found, from the start). Highlighting costs per word, and
-- chunks run to thousands of characters. The text is HTML-escaped first, so the only
-- markup in a snippet is <mark>.
create function public.search_snippet(content text, terms text[], tsq tsquery)
returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case when w.start > 1 then '… ' else '' end
    || ts_headline('public.sourcebook'::regconfig,
         replace(replace(replace(
           -- Whole words only: cut at the spaces inside the window.
           regexp_replace(regexp_replace(substr(content, w.start, 420),
             case when w.start > 1 then '^\S*\s+' else '^' end, ''),
             case when length(content) > w.start + 420 then '\s+\S*$' else '$' end, ''),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
         coalesce(tsq, ''::tsquery),
         'StartSel=<mark>, StopSel=</mark>, MaxWords=35, MinWords=15')
    || case when length(content) > w.start + 420 then ' …' else '' end
  from (
    select greatest(coalesce(min(nullif(strpos(lower(content), t), 0)), 1) - 100, 1) as start
    from unnest(terms) t
  ) w
$$;

revoke execute on function public.bm25_top(
  uuid, tsquery, text[], float8[], float8, real, real, uuid[], uuid[], text[], int
) from public, anon, authenticated;
