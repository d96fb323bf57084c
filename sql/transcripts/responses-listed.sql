-- The responses the pass kept as a list per file and session (scan-usage.sql), as rows for messages.sql.
create or replace temp view scan_responses as
select i.fid, unnest(g.responses, recursive := true)
from scan_groups as g
join transcript_input_files as i using (abs)
where g.responses is not null;
