-- The transcript files of a load, one row each: absolute path, transcripts folder, path relative to
-- it, and how many times the scan reads it (2 for a lone file that starts with a BOM: DuckDB rejects
-- one alone and skips it in a list, duckdb/duckdb#16568).
-- params: abs, dir, rel  parallel lists; copies  1 or 2
create or replace temp table transcript_input_files as
select unnest($abs::VARCHAR[]) as abs, unnest($dir::VARCHAR[]) as dir, unnest($rel::VARCHAR[]) as file, $copies::INTEGER as copies;
