-- Of the keyless lines (keyless-lines.sql), those that are not a JSON object, with what each is
-- (NULL when it is not JSON at all). One read of the files that hold such a line.
-- params: files  those files (a lone file twice: the first copy's record numbers are kept)
create or replace temp table keyless_kinds as
with lines as (
    select filename as abs, ordinality as o, json
    from read_ndjson_objects($files, filename = true, ignore_errors = true, maximum_object_size = 268435456) with ordinality
),

numbered as (
    select abs, o - min(o) over (partition by abs) + 1 as rec, json
    from lines
)

select k.abs, k.file, k.rec, json_type(n.json) as kind
from keyless_lines as k
join numbered as n using (abs, rec)
where coalesce(json_type(n.json), '') <> 'OBJECT';
