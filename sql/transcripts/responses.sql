-- scan_groups from the lines scan-responses.sql kept, with what files-seen.sql and the checks read
-- (as scan.sql aggregates them), and the responses messages.sql reads.
create or replace temp table scan_groups as
select i.abs, g.session_id, g.g
from (
    select fid, session_id,
           {'lines': count(*), 'first_o': min(o), 'keyless_o': list(o) filter (where keyless),
            'mistyped_o': min(o) filter (where mistyped)} as g
    from scan_rows
    group by fid, session_id
) as g
join transcript_input_files as i using (fid);

-- Each response a progress line mirrors (omg_mirror_response), as a row of its own after the lines
-- (scan_groups has counted them): updated in place, the lines had held each update's old values too,
-- and a union with the other responses had been read whole again by each of messages.sql's readers.
-- Its `mirror` is JSON true, which marks it as one (`mirrored`): a progress line is no response, and a copy of
-- the mirror would hold its text twice.
insert into scan_rows by name
select fid, o, session_id, false as keyless, false as mistyped, true as is_response, 'true'::JSON as mirror,
       unnest(omg_mirror_response(omg_mirror_of(mirror), timestamp, cwd, git_branch))
from scan_rows
where mirror is not null;

create or replace temp view scan_responses as
select * exclude (keyless, mistyped, is_response, mirror), mirror is not null as mirrored
from scan_rows
where is_response;
