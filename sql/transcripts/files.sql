-- The transcript files of a load, one row each: absolute path, transcripts folder, path relative to
-- it, how many times its scan reads it (2 for a file that starts with a BOM and is a scan's only
-- file: DuckDB rejects one alone and skips it in a list, duckdb/duckdb#16568), and its number (fid),
-- which the passes that keep every line keep in place of its path. A plain table: each connection's
-- scan reads it.
-- params: abs, dir, rel, copies  parallel lists
create or replace table transcript_input_files as
select unnest($abs::VARCHAR[]) as abs, unnest($dir::VARCHAR[]) as dir, unnest($rel::VARCHAR[]) as file,
       unnest($copies::INTEGER[]) as copies, generate_subscripts($abs::VARCHAR[], 1) as fid;
