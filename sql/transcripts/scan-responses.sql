-- The one pass (scan.sql), for what reads transcript_messages and no table of calls, results or
-- lines (usage): one row per line, its flat typed fields and its usage (omg_scan_responses), for
-- responses.sql. The content of no line is read.
-- params: files  the transcript files, absolute paths
select * from omg_scan_responses($files)
