-- search_document: a search kept to one document ranks its passages by that document's own
-- statistics, with its pages as a unit.
--
-- search_chunks weighs a query's terms by the whole workspace: a word rare in the library but
-- on every page of one filing (its company's name, its year) weighs heavily there and tells
-- its pages apart not at all, so inside that filing the pages that repeat the name most won
-- (asked about one 10-K, the top pages were its subsidiaries list and its capital ratios'
-- boilerplate). Filtered to one document, three changes, each measured on eval:library's
-- development library (25 questions, page recall of the filtered search, each change added
-- to the ones above it):
--   1. idf from the document's own passages, not the workspace's: MRR 0.219 -> 0.299, recall
--      @5/@10/@20 0.48/0.64/0.64 -> 0.44/0.56/0.60.
--   2. a passage's length counted in words, not numbers: a table's figures never match a
--      question's words, yet they made every table passage "long" and so marked down the
--      row and column labels it does match: MRR 0.339, recall 0.52/0.60/0.64.
--   3. pages as a unit: each page is scored as one text (BM25 over the document's pages, idf
--      from how many of its pages hold a term) and that score is added to its passages', so
--      a page about the question (a note on acquisitions that says "acquisition" ten times
--      across three passages) comes before a lone passage with one rare word: MRR 0.345,
--      recall 0.48/0.64/0.64.
--   4. headings: each query term a passage's headings hold (its heading path, and the lines it
--      writes in capitals, which are a PDF's section and table titles) adds the term's idf
--      once: MRR 0.390, recall 0.52/0.64/0.68. (Twice its idf measured 0.52/0.68/0.76, MRR
--      0.382; not chosen: a weight picked on these 25 questions.)
-- Kept: all four (no recall below today's, MRR 0.219 -> 0.390). Tried and dropped: a page
-- scored as its best passage plus half its next two (recall 0.28/0.44/0.56); heading paths
-- alone (PDF passages have none: no change).
--
-- Cost: it reads every passage of the document (their lengths in words make the averages),
-- where search_chunks reads only those its rounds need. The 25 questions on their documents
-- (200-550 passages), run alternately on one database with the machine at load 9-14 on 2
-- cores: p50 117 ms, p95 221 ms, against search_chunks filtered to the document's 37 / 119.
--
-- The whole-workspace search is unchanged: a library's statistics choose among its documents.
-- Chat's passages (chat_sources, below) draw on both: the workspace's ranking chooses the
-- documents, each document its passages. Offline answers citing an evidence page on the
-- development library: 0.36 -> 0.40 (with changes 1-3), 0.52 (with 4).

-- How many of a tsvector's tokens are words (hold a letter): a passage's length for BM25.
create function public.word_count(v tsvector) returns int
language sql immutable strict parallel safe
set search_path = ''
as $$
  select coalesce(sum(cardinality(t.positions)), 0)::int
  from unnest(v) t
  where t.lexeme ~ '[[:alpha:]]'
$$;

-- Columns as search_chunks returns them. A document the caller cannot see, that is not ready
-- or not of the given types returns nothing, as search_chunks filtered to it does.
create function public.search_document(
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
  with q as (
    select t.lexeme, sqrt(cardinality(t.positions)) as weight from unnest(lexemes) t
  ),
  -- Every passage of the document with its length in words and its page: the unit pages are
  -- scored as (a passage crossing a page break counts on its first page). A document without
  -- pages (Markdown, text) has no such unit: each passage is its own.
  passage as materialized (
    select c.id, c.lexemes, public.word_count(c.lexemes)::float8 as len,
      case when paged then c.page_start else -1 - c.ordinal end as page,
      c.content, c.heading_path
    from public.chunks c
    where c.document_id = doc
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
  hits as (
    select p.id, p.page, p.len, t.lexeme, cardinality(t.positions) as tf
    from passage p, unnest(ts_filter(setweight(p.lexemes, 'A', terms), '{a}')) t
    where p.lexemes @@ tsq
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
  matched as (
    select p.id, p.lexemes, p.content, p.heading_path
    from passage p
    where p.lexemes @@ tsq
  ),
  -- A passage's headings: its heading path (Markdown, Word) and the lines it writes in
  -- capitals (a PDF's section and table titles: "CONSOLIDATED BALANCE SHEETS", "NOTE 5 -
  -- ACQUISITIONS"). Each query term they hold adds its idf once: a passage under a heading
  -- naming what the question asks about is about it, whatever its figures say.
  headed as (
    select m.id, coalesce((
      select sum(i.w) from idf i
      where i.lexeme = any (array(
        select t.lexeme
        from unnest(public.bm25_lexemes(concat_ws(' ',
          array_to_string(m.heading_path, ' '),
          (select string_agg(l, ' ') from regexp_split_to_table(m.content, '\n') l
           where l ~ '[[:upper:]]{3}' and l !~ '[[:lower:]]')))) t))
    ), 0) as s
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

-- chat_sources draws on the same rankings. Kept to one document: search_document. Comparing
-- two documents or more: each one's best passages by search_document, taken in turn. Otherwise
-- the workspace's ranking (search_chunks) decides which documents are heard and how many of
-- their passages, and each document fills its places with its own best passages
-- (search_document): the library says which filing, the filing says which of its pages.
-- Measured on the development library through eval:library's rankings (the first 8 passages
-- of a whole-workspace search, filled so): an evidence page among the first 5 for 0.44 of
-- questions (0.40 before), among the 8 for 0.52 (0.44). Each passage comes with its document's
-- type (20260101005200_search_document_type.sql), a new column: the function is made again.
drop function public.chat_sources(uuid, text, int, extensions.vector, uuid);

create function public.chat_sources(
  workspace_id uuid,
  query text,
  match_count int default 8,
  query_embedding extensions.vector default null,
  conversation_id uuid default null
)
returns table (
  chunk_id uuid,
  document_id uuid,
  title text,
  page_start int,
  page_end int,
  char_start int,
  char_end int,
  content text,
  document_type text
)
language plpgsql stable security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  scope uuid[];
begin
  if chat_sources.conversation_id is not null then
    select public.scope_document_ids(c.workspace_id, c.document_ids, c.collection_ids)
    into scope
    from public.conversations c
    where c.id = chat_sources.conversation_id and c.workspace_id = chat_sources.workspace_id;
    if not found then
      return;
    end if;
  end if;

  if cardinality(scope) between 1 and chat_sources.match_count then
    return query
    select c.id, c.document_id, s.title, c.page_start, c.page_end, c.char_start, c.char_end,
      c.content, s.document_type
    from unnest(scope) with ordinality as d (id, k)
    cross join lateral public.search_document(
      chat_sources.workspace_id, d.id, chat_sources.query, chat_sources.match_count,
      query_embedding => chat_sources.query_embedding, snippets => false
    ) with ordinality s
    join public.chunks c on c.id = s.chunk_id
    order by s.ordinality, d.k
    limit chat_sources.match_count;
    return;
  end if;

  return query
  with ranked as (
    select s.chunk_id, s.document_id, s.title, s.document_type, s.ordinality as place,
      row_number() over (partition by s.document_id order by s.ordinality) as nth
    from public.search_chunks(
      chat_sources.workspace_id, chat_sources.query, chat_sources.match_count,
      document_ids => scope, query_embedding => chat_sources.query_embedding, snippets => false
    ) with ordinality s
  ),
  own as (
    select d.document_id, o.chunk_id, o.ordinality as nth
    from (select distinct r.document_id from ranked r) d
    cross join lateral public.search_document(
      chat_sources.workspace_id, d.document_id, chat_sources.query, chat_sources.match_count,
      query_embedding => chat_sources.query_embedding, snippets => false
    ) with ordinality o
  )
  -- A place its document's own ranking cannot fill (it found fewer passages) keeps the
  -- workspace's passage.
  select c.id, c.document_id, r.title, c.page_start, c.page_end, c.char_start, c.char_end,
    c.content, r.document_type
  from ranked r
  left join own o on o.document_id = r.document_id and o.nth = r.nth
  join public.chunks c on c.id = coalesce(o.chunk_id, r.chunk_id)
  order by r.place;
end $$;

revoke execute on function public.chat_sources(uuid, text, int, extensions.vector, uuid)
  from public, anon;
grant execute on function public.chat_sources(uuid, text, int, extensions.vector, uuid)
  to authenticated, service_role;
revoke execute on function public.word_count(tsvector) from public, anon;
revoke execute on function public.search_document(
  uuid, uuid, text, int, extensions.vector, boolean, text[], real, real, int
) from public, anon;
grant execute on function public.search_document(
  uuid, uuid, text, int, extensions.vector, boolean, text[], real, real, int
) to authenticated, service_role;
