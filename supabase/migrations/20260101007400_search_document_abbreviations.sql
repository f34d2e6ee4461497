-- search_document's question sentences no longer end at an abbreviation's dots (issue #15).
--
-- 20260101007000 weighs a query's questions (its sentences ending in a question mark) above
-- the sentences around them, and found sentences by splitting after every `.`, `!` or `?`
-- followed by a space. "What is the U.S. share of revenue? Explain why." was then three
-- sentences, "What is the U.S.", "share of revenue?" and "Explain why.": the question's own
-- opening words weighed half, as an instruction's. A dot that closes a word holding another
-- dot one letter before it (U.S., e.g., i.e., a.m., Ph.D.) is an abbreviation's, not a
-- sentence's end. A decimal ("round to 2.5.") or a host name (amazon.com.) still ends one: the
-- letters around its inner dot are not single. The question's sentence as 7000 found it, and
-- every number the development library gave there, is unchanged for queries without such an
-- abbreviation (none of the 25 development questions has one: same ranks on all of them).
--
-- As in 7000 otherwise.
create or replace function public.search_document(
  workspace_id uuid,
  document uuid,
  query text,
  match_count int default 10,
  query_embedding extensions.vector default null,
  snippets boolean default true,
  types text[] default null,
  k1 real default 1.2,
  b real default 0.6,
  rrf_k int default 60
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
  snippet text,
  document_type text
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  ws constant uuid := search_document.workspace_id;
  doc constant uuid := search_document.document;
  -- Fusion looks deeper than the page it returns, as in search_chunks.
  pool constant int := greatest(match_count * 4, 100);
  lexemes constant tsvector := public.bm25_lexemes(coalesce(query, ''));
  terms constant text[] := array(select t.lexeme from unnest(lexemes) t);
  tsq constant tsquery := public.any_lexeme(terms);
  -- The query's terms its questions hold (its sentences ending in a question mark); a query
  -- without one is all question. A sentence ends after `.`, `!` or `?` and a space, but not
  -- at an abbreviation's dots (a letter, a dot, a letter, a dot: U.S., e.g.).
  asked constant text[] := array(
    select t.lexeme
    from unnest(public.bm25_lexemes(coalesce(
      (select string_agg(s, ' ')
       from regexp_split_to_table(coalesce(query, ''),
                                  '(?<=[.!?])(?<![[:alpha:]]\.[[:alpha:]]\.)\s+') s
       where s ~ '\?\s*$'),
      query, ''))) t);
  -- The query's terms that head some passage of the document (chunk_heading_terms).
  titled text[];
  paged boolean;
  sem_ids uuid[];
  sem_sims float8[];
  -- The query's pairs, as search_chunks has them: each term and the next within three
  -- positions, as a phrase at its nearest distance.
  pair_firsts text[];
  pair_seconds text[];
  pair_queries tsquery[];
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
  select coalesce(d.page_count, 0) > 1 into paged
  from public.documents d
  where d.id = doc and d.workspace_id = ws and d.status = 'ready'
    and (types is null or public.document_kind(d.mime_type) = any (types));
  if not found then
    return;
  end if;

  select array_agg(distinct t) into titled
  from public.chunk_search_facts f, unnest(f.heading_terms) t
  where f.document_id = doc and t = any (terms);

  if query_embedding is not null then
    select array_agg(v.id order by v.similarity desc, v.id),
      array_agg(v.similarity order by v.similarity desc, v.id)
    into sem_ids, sem_sims
    from public.vector_top(ws, query_embedding, array[doc], null, null, pool) v;
  end if;

  select array_agg(x.lexeme), array_agg(x.nxt),
    array_agg(tsquery_phrase(public.any_lexeme(array[x.lexeme]),
                             public.any_lexeme(array[x.nxt]), x.distance))
  into pair_firsts, pair_seconds, pair_queries
  from (
    select y.lexeme, y.nxt, min(y.np - y.p) as distance
    from (
      select l.lexeme, p, lead(l.lexeme) over (order by p) as nxt,
        lead(p) over (order by p) as np
      from unnest(lexemes) l, unnest(l.positions) p
    ) y
    where y.np - y.p <= 3 and y.nxt <> y.lexeme
    group by y.lexeme, y.nxt
  ) x;

  return query
  -- A term only outside the query's questions (in an instruction, a definition or a condition
  -- around them) weighs half, unless the document's headings hold it: then it names a part of
  -- the document to look in ("… shown in the statement of income").
  with q as (
    select t.lexeme,
      sqrt(cardinality(t.positions))
        * case when t.lexeme = any (asked) or t.lexeme = any (titled) then 1 else 0.5 end
        as weight
    from unnest(lexemes) t
  ),
  -- Every passage of the document with its length in words and its page: the unit pages are
  -- scored as (a passage crossing a page break counts on its first page). A document without
  -- pages (Markdown, text) has no such unit: each passage is its own. Lengths and headings
  -- are read as stored when the passage was written (chunk_search_facts).
  passage as materialized (
    select c.id, c.lexemes, f.words::float8 as len,
      case when paged then c.page_start else -1 - c.ordinal end as page,
      f.heading_terms
    from public.chunk_search_facts f
    join public.chunks c on c.id = f.chunk_id
    where f.document_id = doc
  ),
  stats as (
    select count(*)::float8 as n, greatest(avg(p.len), 1) as avglen,
      count(distinct p.page)::float8 as pages
    from passage p
  ),
  page as (
    select p.page, sum(p.len) as len from passage p group by p.page
  ),
  page_stats as (
    select greatest(avg(pg.len), 1) as avglen from page pg
  ),
  -- The passages holding a query term: the only ones whose lexemes are read.
  matched as materialized (
    select p.id, p.page, p.len, p.lexemes, p.heading_terms
    from passage p
    where p.lexemes @@ tsq
  ),
  hits as (
    select m.id, m.page, m.len, t.lexeme, cardinality(t.positions) as tf
    from matched m, unnest(ts_filter(setweight(m.lexemes, 'A', terms), '{a}')) t
  ),
  -- Each term's idf among the document's passages, and among its pages.
  idf as (
    select h.lexeme, ln(1 + (s.n - count(*) + 0.5) / (count(*) + 0.5)) * q.weight as w
    from hits h join q using (lexeme), stats s
    group by h.lexeme, q.weight, s.n
  ),
  page_hits as (
    select h.page, h.lexeme, sum(h.tf) as tf from hits h group by h.page, h.lexeme
  ),
  page_idf as (
    select ph.lexeme, ln(1 + (s.pages - count(*) + 0.5) / (count(*) + 0.5)) * q.weight as w
    from page_hits ph join q using (lexeme), stats s
    group by ph.lexeme, q.weight, s.pages
  ),
  page_score as (
    select ph.page,
      sum(i.w * ph.tf * (k1 + 1) / (ph.tf + k1 * (1 - b + b * pg.len / ps.avglen))) as s
    from page_hits ph join page_idf i using (lexeme) join page pg using (page), page_stats ps
    group by ph.page
  ),
  passage_bm25 as (
    select h.id, h.page,
      sum(i.w * h.tf * (k1 + 1) / (h.tf + k1 * (1 - b + b * h.len / s.avglen))) as s
    from hits h join idf i using (lexeme), stats s
    group by h.id, h.page
  ),
  -- Each pair weighs what its rarer term does here.
  pairs as (
    select x.q, least(a.w, z.w) as w
    from unnest(pair_firsts, pair_seconds, pair_queries) x (t1, t2, q)
    join idf a on a.lexeme = x.t1
    join idf z on z.lexeme = x.t2
  ),
  -- Each query term a passage's headings hold (chunk_heading_terms) adds its idf once: a
  -- passage under a heading naming what the question asks about is about it, whatever its
  -- figures say.
  headed as (
    select m.id,
      coalesce((select sum(i.w) from idf i where i.lexeme = any (m.heading_terms)), 0) as s
    from matched m
  ),
  paired as (
    select m.id, sum(pr.w) as s from matched m join pairs pr on m.lexemes @@ pr.q group by m.id
  ),
  lexical as (
    select l.id, l.bm25, l.score, (row_number() over (order by l.score desc, l.id))::int as rank
    from (
      select pb.id, pb.s as bm25,
        pb.s + coalesce(ps.s, 0) + h.s + coalesce(pd.s, 0) as score
      from passage_bm25 pb join headed h using (id) left join paired pd using (id)
        left join page_score ps using (page)
    ) l
  ),
  semantic as (
    select s.id, s.similarity, s.rank::int as rank
    from unnest(sem_ids, sem_sims) with ordinality as s (id, similarity, rank)
  ),
  fused as (
    select coalesce(l.id, s.id) as id, l.bm25, l.rank as lexical_rank, s.rank as semantic_rank,
      s.similarity,
      case when query_embedding is null then l.score
           else coalesce(1.0 / (rrf_k + l.rank), 0) + coalesce(1.0 / (rrf_k + s.rank), 0) end
        as score
    from lexical l full join semantic s on s.id = l.id
  ),
  -- A page's best passage comes before the second of any page, as in search_chunks.
  placed as (
    select f.*,
      row_number() over (partition by p.page order by f.score desc, f.id) > 1 as repeated
    from fused f
    join passage p on p.id = f.id
  ),
  shown as (
    select p.*, row_number() over (order by p.repeated, p.score desc, p.id) as place
    from placed p
    order by place
    limit match_count
  )
  select t.id, doc, d.title, c.ordinal, c.page_start, c.page_end, t.score::float8, t.bm25,
    t.lexical_rank, t.semantic_rank, t.similarity,
    case when snippets then public.search_snippet(c.content, terms, tsq) end,
    public.document_type(d.mime_type, d.storage_path, d.title)
  from shown t
  join public.chunks c on c.id = t.id
  join public.documents d on d.id = doc
  order by t.place;
end $$;
