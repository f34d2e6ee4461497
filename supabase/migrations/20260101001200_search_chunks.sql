-- search_chunks: BM25 over a workspace's chunks, fused by reciprocal rank with vector
-- similarity when a query embedding is given. Security invoker: the caller's RLS decides
-- which chunks exist, so a non-member finds nothing.
--
-- Lexical candidates come from the GIN index (any query term), then each is scored exactly:
--   idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
--   score  = sum over query terms t of idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))
-- k1 = 1.2 and b = 0.6 were chosen on SciFact's train split (best nDCG@10 of a 3 x 3 grid
-- over k1 in {0.9, 1.2, 1.5} and b in {0.4, 0.6, 0.75}; scripts/eval-retrieval.ts --grid).
--
-- The vector path scans the workspace's embeddings exactly: the column is dimension-free,
-- so an HNSW index needs a fixed-dimension expression index per model, e.g.
-- `using hnsw ((embedding::vector(1536)) vector_cosine_ops) where vector_dims(embedding) = 1536`.
-- A tsquery matching any of the lexemes (already normalised: quoted, never parsed again).
create function public.any_lexeme(lexemes text[]) returns tsquery
language sql immutable strict parallel safe
set search_path = ''
as $$
  select string_agg('''' || replace(replace(l, '\', '\\'), '''', '''''') || '''', ' | ')::tsquery
  from unnest(lexemes) l
$$;

-- The best `lim` chunks matching `tsq`, scored by BM25 over `terms` with their `idfs`.
create function public.bm25_top(
  workspace_id uuid, tsq tsquery, terms text[], idfs float8[], avglen float8, k1 real,
  b real, document_ids uuid[], lim int
)
returns table (id uuid, bm25 float8)
language sql stable security invoker
set search_path = ''
as $$
  select c.id, sum(i.idf * cardinality(t.positions) * (k1 + 1)
           / (cardinality(t.positions) + k1 * (1 - b + b * c.lexeme_count / avglen)))
  from public.chunks c
  -- Only the query's lexemes, with their positions: weight them A, keep the A's.
  cross join lateral unnest(ts_filter(setweight(c.lexemes, 'A', terms), '{a}')) t
  join unnest(terms, idfs) as i (term, idf) on i.term = t.lexeme
  where c.workspace_id = bm25_top.workspace_id and c.lexemes @@ tsq
    and (bm25_top.document_ids is null or c.document_id = any (bm25_top.document_ids))
  group by c.id
  order by 2 desc, c.id
  limit lim
$$;

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
  -- Highlighting costs about a millisecond a row: callers that only rank may skip it.
  snippets boolean default true
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
language plpgsql stable security invoker
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
  n float8;
  avglen float8;
  known text[];
  -- The idf of each known term, rarest first.
  idfs float8[];
  rare int;
  -- How many of the terms, rarest first, a chunk must hold one of to reach the pool.
  keep int;
  top_ids uuid[];
  top_scores float8[];
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

  select s.chunk_count, s.total_length::float8 / s.chunk_count into n, avglen
  from public.workspace_chunk_stats s
  where s.workspace_id = ws and s.chunk_count > 0;
  select array_agg(ts.term order by ts.chunk_freq, ts.term),
    array_agg(ln(1 + (n - ts.chunk_freq + 0.5) / (ts.chunk_freq + 0.5))
              order by ts.chunk_freq, ts.term),
    count(*) filter (where ts.chunk_freq <= n * 0.05)
  into known, idfs, rare
  from public.chunk_term_stats ts
  where ts.workspace_id = ws and ts.term = any (terms);

  -- MaxScore: a term adds at most idf * (k1 + 1). Score the chunks holding a rare term
  -- first; the pool's last score then shows how many of the most common terms cannot lift
  -- a chunk into the pool on their own. Those terms' chunks need no scoring unless they
  -- hold another term too, and their long lists are never read.
  keep := cardinality(known);
  if rare between 1 and keep - 1 then
    select array_agg(r.id order by r.bm25 desc, r.id), array_agg(r.bm25 order by r.bm25 desc, r.id)
    into top_ids, top_scores
    from public.bm25_top(ws, public.any_lexeme(known[1:rare]), known, idfs, avglen, k1, b,
                         document_ids, pool) r;
    if coalesce(cardinality(top_ids), 0) = pool then
      keep := keep - (
        select count(*) from (
          select sum(idfs[i]) over (order by i desc) * (k1 + 1) as bound
          from generate_subscripts(idfs, 1) i
        ) u
        where u.bound < top_scores[pool]
      );
    end if;
    if keep > rare then
      top_ids := null;
    end if;
  end if;
  if top_ids is null and known is not null then
    select array_agg(r.id order by r.bm25 desc, r.id), array_agg(r.bm25 order by r.bm25 desc, r.id)
    into top_ids, top_scores
    from public.bm25_top(ws, public.any_lexeme(known[1:keep]), known, idfs, avglen, k1, b,
                         document_ids, pool) r;
  end if;

  return query
  with lexical as (
    select l.id, l.bm25, l.rank::int as rank
    from unnest(top_ids, top_scores) with ordinality as l (id, bm25, rank)
  ),
  semantic as (
    select c.id, 1 - (c.embedding operator(extensions.<=>) query_embedding) as similarity
    from public.chunks c
    where query_embedding is not null and c.workspace_id = ws and c.embedding is not null
      and extensions.vector_dims(c.embedding) = extensions.vector_dims(query_embedding)
      and (document_ids is null or c.document_id = any (document_ids))
    order by c.embedding operator(extensions.<=>) query_embedding, c.id
    limit pool
  ),
  semantic_ranked as (
    select s.id, s.similarity, (row_number() over (order by s.similarity desc, s.id))::int as rank
    from semantic s
  ),
  fused as (
    select coalesce(l.id, s.id) as id, l.bm25, l.rank as lexical_rank, s.rank as semantic_rank,
      s.similarity,
      case when query_embedding is null then l.bm25
           else coalesce(lexical_weight / (rrf_k + l.rank), 0)
              + coalesce(semantic_weight / (rrf_k + s.rank), 0) end as score
    from lexical l full join semantic_ranked s on s.id = l.id
  )
  select f.id, c.document_id, d.title, c.ordinal, c.page_start, c.page_end, f.score, f.bm25,
    f.lexical_rank, f.semantic_rank, f.similarity,
    -- The content is HTML-escaped first, so the only markup in a snippet is <mark>.
    case when snippets then ts_headline('public.sourcebook'::regconfig,
      replace(replace(replace(c.content, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
      coalesce(tsq, ''::tsquery),
      'StartSel=<mark>, StopSel=</mark>, MaxWords=40, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "') end
  from fused f
  join public.chunks c on c.id = f.id
  join public.documents d on d.id = c.document_id
  order by f.score desc, f.id
  limit match_count;
end $$;
