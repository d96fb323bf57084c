-- The first line, by file and record number, that is not a record: not JSON (kind NULL), JSON but
-- not an object (keyless.sql), or an object whose timestamp or version is not a string.
with problems as (
    select abs, file, rec, 'not an object' as problem, kind
    from keyless_kinds
    union all
    select f.abs, f.file, g.g.mistyped_o - f.first + 1, 'mistyped', null
    from scan_groups as g
    join scan_files as f using (abs)
    where g.g.mistyped_o is not null
)
select abs, file, rec, problem, kind
from problems
order by file, rec
limit 1;
