-- What DuckDB's JSON reader lets through but RFC 8259 does not, in the records of view
-- json_records (file, rec, json): the first NaN, Infinity or -Infinity, key repeated within one
-- object, or value nested more than 256 levels deep (RFC 8259 §9 lets a reader limit nesting;
-- each level is read again below it), by file, record and kind; none when every value is JSON.
-- A record whose text has at most 256 opening brackets cannot nest that deep: its nodes are listed
-- at once (json_extract's `$.**`, every value below the root), unless it is over 1 MiB (a list of
-- a million values costs more that way than walked) or listing them, each one's text, could exceed
-- 64 MiB (the text's length times its brackets bounds it). Every other record
-- is walked a level at a time, each object and array turned into a list and unnested, which takes
-- time in proportion to its nodes but a statement per level (json_tree and json_each, joined to a
-- table, take time quadratic in a record's nodes: a record of 32,768 numbers took seconds).
-- The routing and the listing are materialized: otherwise each use computes them again.
with recursive shapes as materialized (
    select file, rec, json, opens <= 256 and size <= 1048576 and size * (opens + 1) <= 67108864 as flat
    from (
        select file, rec, json, strlen(json::VARCHAR) as size,
               size - strlen(replace(replace(json::VARCHAR, '{', ''), '[', '')) as opens
        from json_records
    )
),

listed as materialized (
    select file, rec, json as value
    from shapes
    where flat
    union all
    select file, rec, unnest(json_extract(json, '$.**'))
    from shapes
    where flat
),

nodes(file, rec, value, dup, depth) as (
    select file, rec, json, null::VARCHAR, 0
    from shapes
    where not flat
    union all
    select file, rec, unnest(children), dup, depth + 1
    from (
        select n.file, n.rec, n.depth,
               case json_type(n.value)
                   when 'OBJECT' then map_values(from_json(n.value, '"MAP(VARCHAR, JSON)"'))
                   when 'ARRAY' then from_json(n.value, '["JSON"]')
               end as children,
               -- the first key of the object that an earlier key repeats
               case when json_type(n.value) = 'OBJECT' and len(json_keys(n.value)) <> len(list_distinct(json_keys(n.value)))
                    then list_filter(json_keys(n.value), (k, i) -> list_position(json_keys(n.value), k) < i)[1]
               end as dup
        from nodes as n
        where json_type(n.value) in ('OBJECT', 'ARRAY') and n.depth < 256
    )
),

problems as (
    select file, rec, 'number' as what, value::VARCHAR as detail
    from nodes
    where json_type(value) = 'DOUBLE' and value::VARCHAR in ('NaN', 'Infinity', '-Infinity')
    union all
    select file, rec, 'key' as what, dup as detail
    from nodes
    where dup is not null
    union all
    select file, rec, 'depth' as what, null as detail
    from nodes
    where depth = 256 and json_type(value) in ('OBJECT', 'ARRAY')
    union all
    select file, rec, 'number' as what, value::VARCHAR as detail
    from listed
    where json_type(value) = 'DOUBLE' and value::VARCHAR in ('NaN', 'Infinity', '-Infinity')
    union all
    select file, rec, 'key' as what, list_filter(json_keys(value), (k, i) -> list_position(json_keys(value), k) < i)[1] as detail
    from listed
    where json_type(value) = 'OBJECT' and len(json_keys(value)) <> len(list_distinct(json_keys(value)))
)

select file, rec, what, detail
from problems
order by file, rec, what, detail
limit 1
