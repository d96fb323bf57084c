-- One row per non-blank line of the probe's JSONL files (load/jsonl.ts readJsonl): `file` as given,
-- `rec` its record number within the file (1-based; DuckDB skips blank lines, jsonl.ts maps a
-- record back to its physical line), `json` NULL when the line is not valid JSON or not UTF-8.
-- WITH ORDINALITY numbers records across the whole scan, file after file; subtracting each file's
-- first number gives the number within the file. A lone file with a UTF-8 BOM is read twice
-- ($twice: DuckDB rejects the BOM of a lone file, duckdb/duckdb#16568) and the first copy kept. Even with ignore_errors, a line longer than
-- maximum_object_size stops the scan (jsonl.ts lineTooLong says which line).
-- params: files  the files (a lone one twice), absolute paths
--         twice  whether $files is one file read twice
--         max_object  DuckDB's maximum_object_size
create or replace temp table raw_records as
with scan as (
  select filename as file, ordinality as o, json
  from read_ndjson_objects($files, filename = true, ignore_errors = true, maximum_object_size = $max_object) with ordinality
), numbered as (
  select file, o - min(o) over (partition by file) + 1 as rec, count(*) over (partition by file) as n, json
  from scan
)
select file, rec, json
from numbered
where not $twice or rec <= n / 2
