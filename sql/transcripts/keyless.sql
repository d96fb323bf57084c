-- Of the lines in one file with none of the fields the loader reads (omg_keyless), the first that
-- is not a JSON object, with what it is (NULL when it is not JSON at all); none when every such
-- line is an object.
-- params: files  the file, twice (files.sql); recs  its keyless record numbers
select ordinality as rec, json_type(json) as kind
from read_ndjson_objects($files, ignore_errors = true, maximum_object_size = 268435456) with ordinality
where ordinality in (select unnest($recs::BIGINT[])) and coalesce(json_type(json), '') <> 'OBJECT'
order by rec
limit 1;
