-- The lines transcript_strays (strays.sql) found in the file of a spawn's session, or of a spawn's
-- session in another's file: extract writes the calls of each line to its own session's record, so
-- the file's session's record lacks them. The first six by file and line, and how many in all.
-- reads:  transcript_strays, spawns
-- params: none
select t.abs, t.rec, t.file_session, t.session_id, s.seq is not null as named, count(*) over () as strays
from transcript_strays as t
left join spawns as s using (session_id)
where s.seq is not null or exists (select 1 from spawns as a where a.session_id = t.file_session)
order by t.abs, t.rec
limit 6
