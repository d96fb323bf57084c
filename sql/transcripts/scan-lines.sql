-- The one pass (scan.sql), for what may read any table (sql, load, export, the library): every
-- line's full typed fields (omg_scan_full), kept for transcript_lines; groups.sql then
-- aggregates them as scan.sql does.
-- params: files  the transcript files, absolute paths
select * from omg_scan_full($files)
