-- The lines of committed transcript files (those inside a probe folder), as json_records
-- (sql/json-values.sql) reads them: file, record number, the line.
-- params: files  the files (a lone file twice, files.sql)
create or replace temp table committed_lines as
with lines as (
    select filename as abs, ordinality as o, json
    from read_ndjson_objects($files, filename = true, maximum_object_size = 268435456) with ordinality
)
select abs as file, o - min(o) over (partition by abs) + 1 as rec, json
from lines
qualify rec <= count(*) over (partition by abs) // $copies
