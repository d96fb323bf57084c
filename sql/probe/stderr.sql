-- The stderr of each spawn that exited non-zero, from its tool_use/<session_id>.err file: one row
-- per file (probe, session_id, content), for spawns.sql. read_text needs at least one file: with
-- none, probe.ts makes the table empty instead.
-- params: err_files  the .err files, absolute paths (pathList)
create or replace temp table spawn_stderr as
select s.probe, s.session_id, t.content
from read_text($err_files) t join source_files s on s.abs = t.filename
