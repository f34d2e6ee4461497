// What the type generator reads from pg_catalog, in one statement returning one JSON value.

export type Column = {
  name: string
  type: string
  nullable: boolean
  hasDefault: boolean
  generated: boolean
}

export type Catalog = {
  relations: { name: string; kind: 'table' | 'view'; columns: Column[] }[]
  relationships: {
    name: string
    table: string
    columns: string[]
    isOneToOne: boolean
    referencedTable: string
    referencedColumns: string[]
  }[]
  functions: Fn[]
  enums: { name: string; values: string[] }[]
}

export type Fn = {
  name: string
  args: { name: string; type: string; hasDefault: boolean }[]
  returnType: string
  returnsSet: boolean
  /** Columns of `returns table (...)`. */
  returnsTable: { name: string; type: string }[] | null
  /** The table whose row type the function returns (`returns setof some_table`). */
  returnsRelation: string | null
}

// Types are named by pg_type.typname (arrays as _elem), which is what tsType() maps.
export const catalogSql = `
with ns as (select oid from pg_namespace where nspname = $1),
rels as (
  select c.oid, c.relname, c.relkind from pg_class c
  where c.relnamespace = (select oid from ns) and c.relkind in ('r', 'p', 'v', 'm')
),
cols as (
  select a.attrelid, jsonb_agg(jsonb_build_object(
    'name', a.attname,
    'type', t.typname,
    'nullable', not a.attnotnull,
    'hasDefault', a.atthasdef or a.attidentity <> '',
    'generated', a.attgenerated <> '' or a.attidentity = 'a'
  ) order by a.attnum) as columns
  from pg_attribute a join pg_type t on t.oid = a.atttypid
  where a.attrelid in (select oid from rels) and a.attnum > 0 and not a.attisdropped
  group by a.attrelid
),
fks as (
  select con.conname, src.relname as src, ref.relname as ref,
    (select jsonb_agg(a.attname order by k.i) from unnest(con.conkey) with ordinality k(n, i)
     join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n) as columns,
    (select jsonb_agg(a.attname order by k.i) from unnest(con.confkey) with ordinality k(n, i)
     join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n) as ref_columns,
    exists (
      select 1 from pg_index i
      where i.indrelid = con.conrelid and i.indisunique and i.indpred is null
        and (select array_agg(x order by x) from unnest(i.indkey::int2[]) x)
          = (select array_agg(x order by x) from unnest(con.conkey) x)
    ) as one_to_one
  from pg_constraint con
  join pg_class src on src.oid = con.conrelid
  join pg_class ref on ref.oid = con.confrelid
  where con.contype = 'f' and src.relnamespace = (select oid from ns)
    and ref.relnamespace = (select oid from ns)
),
fns as (
  select p.proname, p.proretset, rt.typname as rettype,
    case when rt.typtype = 'c' and rel.relnamespace = (select oid from ns) then rel.relname end as retrel,
    coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs])) as modes,
    -- oidvector casts to a 0-based array; rebuild it 1-based like the other arg arrays.
    coalesce(p.proallargtypes, array(select unnest(p.proargtypes::oid[]))) as types,
    coalesce(p.proargnames, array_fill(''::text, array[p.pronargs])) as names,
    p.pronargs, p.pronargdefaults
  from pg_proc p
  join pg_type rt on rt.oid = p.prorettype
  left join pg_class rel on rel.oid = rt.typrelid
  where p.pronamespace = (select oid from ns) and p.prokind = 'f'
    and rt.typname not in ('trigger', 'event_trigger')
),
fn_json as (
  select jsonb_build_object(
    'name', f.proname,
    'returnType', f.rettype,
    'returnsSet', f.proretset,
    'returnsRelation', f.retrel,
    'args', coalesce((
      select jsonb_agg(jsonb_build_object(
        'name', f.names[a.i], 'type', t.typname,
        'hasDefault', a.input_no > f.pronargs - f.pronargdefaults) order by a.i)
      from (select i, f.types[i] as type_oid,
                   count(*) over (order by i) as input_no
            from generate_subscripts(f.types, 1) i
            where f.modes[i] in ('i', 'b', 'v')) a
      join pg_type t on t.oid = a.type_oid
    ), '[]'),
    'returnsTable', (
      select jsonb_agg(jsonb_build_object('name', f.names[i], 'type', t.typname) order by i)
      from generate_subscripts(f.types, 1) i join pg_type t on t.oid = f.types[i]
      where f.modes[i] = 't'
    )
  ) as fn
  from fns f
)
select jsonb_build_object(
  'relations', coalesce((
    select jsonb_agg(jsonb_build_object(
      'name', r.relname,
      'kind', case when r.relkind in ('r', 'p') then 'table' else 'view' end,
      'columns', coalesce(c.columns, '[]')))
    from rels r left join cols c on c.attrelid = r.oid
  ), '[]'),
  'relationships', coalesce((
    select jsonb_agg(jsonb_build_object(
      'name', conname, 'table', src, 'columns', columns, 'isOneToOne', one_to_one,
      'referencedTable', ref, 'referencedColumns', ref_columns) order by conname)
    from fks
  ), '[]'),
  'functions', coalesce((select jsonb_agg(fn) from fn_json), '[]'),
  'enums', coalesce((
    select jsonb_agg(jsonb_build_object('name', t.typname, 'values',
      (select jsonb_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid)))
    from pg_type t where t.typnamespace = (select oid from ns) and t.typtype = 'e'
  ), '[]')
) as catalog`
