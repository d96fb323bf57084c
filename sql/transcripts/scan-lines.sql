-- The one pass (scan.sql), for what may read any table (sql, load, export, the library): every
-- line's full typed fields (omg_scan_full), kept for transcript_lines; groups.sql then
-- aggregates them as scan.sql does. A line keeps its file's number, not its path (a string a row:
-- about 20 MB of a large load's peak).
-- params: files  the transcript files, absolute paths
select i.fid, s.* exclude (abs)
from omg_scan_full($files) as s
join transcript_input_files as i using (abs)
