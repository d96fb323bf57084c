-- transcript_lines, from the lines scan-lines.sql kept: one row per non-blank line, its record
-- number and its session (its file's for a line without sessionId).
create or replace table transcript_lines as
select s.o - f.first + 1 as rec, f.file, s.type, s.subtype, coalesce(s.session_id, f.session_id) as session_id, s.uuid,
       s.timestamp, s.version, s.is_sidechain, s.agent_id, s.model
from transcript_scan as s
join scan_files as f using (fid)
where s.o - f.first + 1 <= f.n;
