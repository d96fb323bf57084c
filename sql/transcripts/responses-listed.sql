-- The responses the pass kept as a list per file and session (scan-usage.sql), as rows for messages.sql.
create or replace temp view scan_responses as
select abs, unnest(responses, recursive := true)
from scan_groups
where responses is not null;
