-- The one pass (scan.sql), for what reads transcript_messages and no table of calls, results or
-- lines (usage): one row per line, its flat typed fields and its usage (omg_scan_responses), for
-- responses.sql. The content of no line is read. A line keeps its file's number, not its path
-- (scan-lines.sql).
-- params: files  the transcript files, absolute paths
select i.fid, s.* exclude (abs)
from omg_scan_responses($files) as s
join transcript_input_files as i using (abs)
