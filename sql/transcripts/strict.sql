-- Of committed transcript files (those inside a probe folder), the first value, by file and record,
-- that RFC 8259 has no place for and DuckDB's reader lets through: NaN, Infinity or -Infinity, or a
-- key repeated within one object (readers disagree on which copy wins). Every node of every line.
-- params: files  the files (a lone file twice, files.sql)
with lines as (
    select filename as abs, ordinality as o, json
    from read_ndjson_objects($files, filename = true, maximum_object_size = 268435456) with ordinality
),

firsts as (
    select abs, min(o) as first from lines group by abs
),

nodes as (
    select l.abs, l.o - f.first + 1 as rec, t.parent, t.key, t.type, t.value
    from lines as l
    join firsts as f using (abs),
         json_tree(l.json) as t
)

select abs, rec, 'number' as what, value::VARCHAR as detail
from nodes
where type = 'DOUBLE' and value::VARCHAR in ('NaN', 'Infinity', '-Infinity')
union all
select abs, rec, 'key' as what, key as detail
from nodes
where parent is not null
group by abs, rec, parent, key
having count(*) > 1
order by abs, rec, what, detail
limit 1;
