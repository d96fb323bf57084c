-- Which of a line's timestamp and version is not a string, and what it is (its first 60 characters).
-- params: files  the file, twice (files.sql); rec  the line's record number
select x.k as k, left(x.v::VARCHAR, 60) as v
from (
    select unnest([{'k': 'timestamp', 'v': json -> '$.timestamp'}, {'k': 'version', 'v': json -> '$.version'}]) as x
    from read_ndjson_objects($files, ignore_errors = true, maximum_object_size = 268435456) with ordinality
    where ordinality = $rec
)
where coalesce(json_type(x.v), 'NULL') not in ('VARCHAR', 'NULL')
limit 1;
