-- Where each session's lines are, file by file, when several probes load: sql/probe/transcript-owners.sql
-- then holds a session to one transcripts folder, and a probe's own transcripts/ to its spawns. A
-- plain table, for the connection that checks it, which drops it.
create or replace table transcript_owners as
select distinct coalesce(g.session_id, f.session_id) as session_id, f.dir, f.file, f.abs
from scan_groups as g
join scan_files as f using (abs);
