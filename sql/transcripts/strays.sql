-- Where a file holds lines of a session other than its own (files-seen.sql: its first sessionId):
-- the first such line of each other session, by its rec. A plain table, for extract's warning
-- (transcript-owners.ts), which drops it.
create or replace table transcript_strays as
select f.abs, g.g.first_o - f.first + 1 as rec, f.session_id as file_session, g.session_id
from scan_groups as g
join scan_files as f using (abs)
where g.session_id <> f.session_id;
