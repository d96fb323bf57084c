-- Per transcript file (its number and path): its first ordinality, its lines (a file read twice counted once, files.sql),
-- and the session of its lines that carry no sessionId (summary, file-history-snapshot): the
-- file's first sessionId, or else the file's name.
create or replace temp table scan_files as
select f.fid, f.abs, f.dir, f.file, f.copies,
       min(g.g.first_o) as first,
       coalesce(sum(g.g.lines) // f.copies, 0)::BIGINT as n,
       coalesce(arg_min(g.session_id, g.g.first_o) filter (where g.session_id is not null),
                regexp_replace(f.file, '^.*/|\.jsonl$', '', 'g')) as session_id
from transcript_input_files as f
left join scan_groups as g using (abs)
group by f.fid, f.abs, f.dir, f.file, f.copies;
